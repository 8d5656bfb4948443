// The Sluice web console: reads /api/v1 and posts SQL to /_plugins/_sql
// like any other client. Everything shown is set as text, never as HTML.
"use strict";
(() => {
  const POLL_MS = 2000;
  const TABLES_MS = 15000;
  const $ = (sel) => document.querySelector(sel);
  const who = { role: "read" };
  const cards = new Map(); // name → {root, charts, ...}

  // el builds an element; string and number children become text.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c === undefined || c === null) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // The server puts an anti-CSRF token in the page; every request that
  // changes something sends it, and the server refuses a browser's
  // request without it.
  let csrfToken = (document.querySelector('meta[name="sluice-csrf"]') || {}).content || "";
  // A browser signed in on the sign-in page keeps its Authorization
  // header in this tab's session storage; one that sends basic auth by
  // itself (its password dialog) needs none.
  const AUTH_KEY = "sluice-authorization";
  let authorization = sessionStorage.getItem(AUTH_KEY) || "";

  class APIError extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }

  async function api(method, path, body) {
    const opts = { method, headers: { Accept: "application/json", "X-Sluice-Console": "1" } };
    if (authorization) opts.headers.Authorization = authorization;
    if (method !== "GET" && method !== "HEAD") opts.headers["X-Sluice-CSRF"] = csrfToken;
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const resp = await fetch(path, opts);
    const text = await resp.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
    if (resp.status === 401 && !signingIn) showLogin("");
    if (!resp.ok) throw new APIError(resp.status, errorText(resp.status, data, text));
    return data;
  }

  function errorText(status, data, text) {
    if (data && data.error) {
      const e = data.error;
      if (status === 403) return "Not allowed: " + (e.details || "your role may not do this");
      return (e.reason ? e.reason + ": " : "") + (e.details || e.type || "");
    }
    if (status === 401) return "Not signed in.";
    if (status === 403) return "Not allowed: " + (text.trim() || "your role may not do this");
    return (text || "").trim() || "HTTP " + status;
  }

  function banner(msg) {
    const b = $("#banner");
    b.textContent = msg || "";
    b.hidden = !msg;
  }

  const fmtInt = (n) => (n === null || n === undefined ? "—" : Number(n).toLocaleString("en-US"));
  function fmtRate(x) {
    if (x === null || x === undefined) return "—";
    if (x === 0) return "0";
    return x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString("en-US");
  }
  const fmtMS = (x) => (x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString("en-US")) + " ms";
  function fmtDelay(s) {
    if (s === null || s === undefined || isNaN(s)) return "—";
    if (s < 1) return "<1 s";
    if (s < 120) return Math.round(s) + " s";
    if (s < 7200) return Math.round(s / 60) + " min";
    return (s / 3600).toFixed(1) + " h";
  }
  // stateLabel: a stream stopped in this server reports success (its run
  // ended without error); the console calls it what the user asked for.
  function stateLabel(st) {
    return st.state === "success" && st.desired === "stopped" ? "stopped" : st.state;
  }
  function watermarkDelay(st) {
    return st.watermark ? Math.max(0, (Date.now() - Date.parse(st.watermark)) / 1000) : null;
  }

  // ---- streams ----

  function actionButton(st, onDone) {
    // Streams start and stop for write and admin, views for admin only.
    if (who.role !== "admin" && (who.role !== "write" || st.kind === "view")) return null;
    const running = st.state === "running";
    const verb = running ? "stop" : "start";
    return el("button", {
      class: running ? "secondary" : "",
      "data-action": verb,
      onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          await api("POST", "/api/v1/streams/" + encodeURIComponent(st.name) + "/" + verb);
          banner("");
        } catch (e) {
          banner("Could not " + verb + " " + st.name + ": " + e.message);
        }
        onDone();
      },
    }, running ? "Stop" : "Start");
  }

  function renderStreamTable(streams) {
    const body = $("#stream-table tbody");
    body.replaceChildren(...streams.map((st) => el("tr", { "data-stream": st.name },
      el("td", { class: "nowrap" }, el("a", { href: "#card-" + st.name }, st.name)),
      el("td", { class: "kind" }, st.kind),
      el("td", {}, el("span", { class: "state " + st.state }, stateLabel(st))),
      el("td", {}, st.sink),
      el("td", { class: "num epoch" }, st.epoch === null ? "—" : st.epoch),
      el("td", { class: "num rows-in" }, fmtInt(st.rows_in)),
      el("td", { class: "num rows-out" }, fmtInt(st.rows_out)),
      el("td", { class: "num" }, fmtRate(st.rows_in_per_second)),
      el("td", { class: "num" }, fmtInt(st.lag.files)),
      el("td", { class: "num wm-delay" }, fmtDelay(watermarkDelay(st))),
      el("td", { class: "error-flag" }, st.last_error ? "error" : ""),
    )));
    $("#stream-table").hidden = streams.length === 0;
    $("#no-streams").hidden = streams.length !== 0;
  }

  // Each chart takes its columns from the stream's history: samples
  // (every few seconds) or its last epochs.
  const sampleCols = (fields) => (h) => [h.time].concat(fields.map((f) => h[f]));
  // The phases are stacked: each series is its phase plus the ones
  // below it, drawn top first so each fill shows its own band.
  const PHASES = ["listing", "reading", "operators", "sink", "checkpoint"];
  function stackedPhases(h) {
    const e = h.epochs;
    const sums = PHASES.map(() => []);
    for (let i = 0; i < e.time.length; i++) {
      let acc = 0;
      PHASES.forEach((ph, j) => { acc += e[ph + "_ms"][i] || 0; sums[j][i] = acc; });
    }
    return [e.time].concat(sums.reverse());
  }
  const CHARTS = [
    { key: "rate", title: "Rows per second", data: sampleCols(["rows_in_per_second", "rows_out_per_second"]), series: [
      { label: "in", stroke: "#2864c8" },
      { label: "out", stroke: "#1f8a4c" }] },
    { key: "lag", title: "Lag (files waiting)", data: sampleCols(["lag_files"]), series: [
      { label: "files", stroke: "#b8770b" }] },
    { key: "wm", title: "Watermark delay (s)", data: sampleCols(["watermark_delay_seconds"]), series: [
      { label: "delay", stroke: "#7a4cc2" }] },
    { key: "phases", title: "Epoch duration by phase (ms)", data: stackedPhases, series: [
      { label: "checkpoint", stroke: "#7a4cc2", fill: "#7a4cc2" },
      { label: "sink", stroke: "#1f8a4c", fill: "#1f8a4c" },
      { label: "operators", stroke: "#b8770b", fill: "#b8770b" },
      { label: "reading", stroke: "#2864c8", fill: "#2864c8" },
      { label: "listing", stroke: "#8a93a3", fill: "#8a93a3" }] },
    { key: "inproc", title: "Input vs processing rate (rows/s)",
      data: (h) => [h.epochs.time, h.epochs.input_rows_per_second, h.epochs.processed_rows_per_second], series: [
        { label: "input", stroke: "#2864c8" },
        { label: "processing", stroke: "#c6362f" }] },
  ];

  // fmtCompact keeps axis labels short: 950, 12k, 1.2M, 3.4G.
  function fmtCompact(x) {
    if (x === null || x === undefined || isNaN(x)) return "";
    const a = Math.abs(x);
    for (const [div, unit] of [[1e9, "G"], [1e6, "M"], [1e3, "k"]]) {
      if (a >= div) {
        const v = x / div;
        return (Math.abs(v) < 10 ? +v.toFixed(1) : Math.round(v)) + unit;
      }
    }
    return a < 10 && a !== Math.round(a) ? String(+x.toFixed(2)) : String(Math.round(x));
  }

  // The y axis is as wide as its widest label (uPlot measures nothing
  // itself: a fixed size clipped labels of 10,000 and more).
  const AXIS_FONT = "11px sans-serif";
  const measure = document.createElement("canvas").getContext("2d");
  function axisWidth(u, values) {
    if (!values || !values.length) return 30;
    measure.font = AXIS_FONT;
    const widest = Math.max(...values.map((v) => measure.measureText(String(v)).width));
    return Math.ceil(widest) + 16; // ticks (4) and gaps beside the labels
  }

  function newChart(spec, target) {
    const width = Math.max(200, target.clientWidth || 300);
    return new uPlot({
      width, height: 140,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (u, lo, hi) => [0, Math.max(hi || 0, 1) * 1.1] } },
      axes: [{ size: 30, font: AXIS_FONT }, { size: axisWidth, font: AXIS_FONT, values: (u, splits) => splits.map(fmtCompact) }],
      series: [{}].concat(spec.series.map((s) => ({ label: s.label, stroke: s.stroke, width: 1.5, spanGaps: false,
        fill: s.fill ? s.fill + "99" : undefined }))),
    }, [[]].concat(spec.series.map(() => [])), target);
  }

  function ensureCard(st) {
    let c = cards.get(st.name);
    if (c) return c;
    const state = el("span", { class: "state" });
    const query = el("span", { class: "query" });
    const stats = el("span", { class: "muted stats" });
    const action = el("span", {});
    const error = el("div", { class: "error", hidden: true });
    const charts = el("div", { class: "charts" });
    const figures = el("div", { class: "figures" });
    const stateOps = el("div", { class: "state-ops" });
    const scaleOut = el("div", { class: "scaleout", hidden: true });
    const planText = el("pre", { class: "plan-text" });
    const plan = el("details", { class: "plan" }, el("summary", {}, "Plan"), planText);
    const deadBody = el("div", { class: "dead-body" });
    const dead = el("details", { class: "dead" }, el("summary", {}, "Dead letters"), deadBody);
    const root = el("div", { class: "card", id: "card-" + st.name, "data-stream": st.name },
      el("div", { class: "card-head" }, el("h3", {}, st.name), state, query, stats, action), error, figures, scaleOut, charts, stateOps, plan, dead);
    $("#stream-cards").append(root);
    c = { root, state, query, stats, action, error, figures, stateOps, scaleOut, chartEls: {}, charts: {}, notes: {} };
    // The plan and the dead letters are read when opened (each open
    // reads them again: a restart may have changed the plan).
    plan.addEventListener("toggle", () => { if (plan.open) loadPlan(st.name, planText); });
    dead.addEventListener("toggle", () => { if (dead.open) loadDeadLetters(st.name, deadBody); });
    for (const spec of CHARTS) {
      c.notes[spec.key] = el("span", { class: "note" });
      const box = el("div", { class: "chart chart-" + spec.key }, el("h4", {}, spec.title, " ", c.notes[spec.key]));
      const plot = el("div", {});
      box.append(plot);
      charts.append(box);
      c.chartEls[spec.key] = plot;
      c.charts[spec.key] = newChart(spec, plot);
    }
    cards.set(st.name, c);
    return c;
  }

  function renderCards(streams) {
    const names = new Set(streams.map((s) => s.name));
    for (const [name, c] of cards) {
      if (!names.has(name)) {
        for (const ch of Object.values(c.charts)) ch.destroy();
        c.root.remove();
        cards.delete(name);
      }
    }
    for (const st of streams) {
      const c = ensureCard(st);
      c.state.className = "state " + st.state;
      c.state.textContent = stateLabel(st);
      c.query.textContent = st.query;
      c.query.title = st.query;
      c.stats.textContent = st.kind + " → " + st.sink + " · " + st.trigger;
      c.action.replaceChildren(...[actionButton(st, refreshStreams)].filter(Boolean));
      c.error.textContent = st.last_error ? "Last error: " + st.last_error : "";
      c.error.hidden = !st.last_error;
      renderFigures(c, st);
    }
  }

  // figures: the watermark, late and bad rows, and the last epoch; then
  // each stateful operator's rows and bytes (Flink's state size).
  function renderFigures(c, st) {
    const fig = (label, value, cls) => el("span", { class: "figure " + cls }, el("span", { class: "muted" }, label + " "), value);
    c.figures.replaceChildren(
      fig("Watermark", st.watermark ? st.watermark.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC") : "—", "fig-watermark"),
      fig("Late rows", fmtInt(st.late_rows), "fig-late"),
      fig("Bad rows", fmtInt(st.bad_rows), "fig-bad"),
      fig("Epochs", fmtInt(st.epochs), "fig-epochs"),
      fig("Last epoch", st.last_epoch ? fmtMS(st.last_epoch.duration_ms) : "—", "fig-last"));
    renderScaleOut(c, st.scale_out);
    const ops = st.state_operators || [];
    c.stateOps.hidden = ops.length === 0;
    c.stateOps.replaceChildren(...(ops.length ? [el("table", { class: "grid state-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "Stateful operator"), el("th", {}, "Kind"), el("th", { class: "num" }, "State rows"), el("th", { class: "num" }, "State bytes"))),
      el("tbody", {}, ...ops.map((o) => el("tr", { "data-op": o.id },
        el("td", {}, el("code", {}, o.id)), el("td", {}, o.kind),
        el("td", { class: "num state-rows" }, fmtInt(o.rows)), el("td", { class: "num state-bytes" }, fmtBytes(o.bytes))))))] : []));
  }

  // renderScaleOut: a stream shared by workers (workers = N) shows this
  // server's slot and, keyed, every partition (this server's marked)
  // and each worker's share, as Flink's subtask view does.
  function renderScaleOut(c, so) {
    c.scaleOut.hidden = !so;
    if (!so) { c.scaleOut.replaceChildren(); return; }
    const parts = [];
    const mine = new Set(so.mine);
    for (let p = 0; p < so.partitions; p++) {
      parts.push(el("span", { class: "part" + (mine.has(p) ? " mine" : ""), "data-part": p, title: mine.has(p) ? "partition " + p + ": this server" : "partition " + p + ": another worker" }, p));
    }
    const q = so.queue ? " · queue: " + fmtInt(so.queue.pending) + " pending, " + fmtInt(so.queue.unacked) + " unacked, " + fmtInt(so.queue.held) + " held" : "";
    c.scaleOut.replaceChildren(
      el("div", { class: "scaleout-head" }, el("strong", {}, "Workers"), " this server is worker " + so.worker + " of " + so.workers +
        (so.partitions ? " · " + so.mine.length + " of " + so.partitions + " partitions · " + so.live_workers + " live" : "") + q),
      ...(so.partitions ? [el("div", { class: "parts" }, ...parts),
        el("table", { class: "grid owners" },
          el("thead", {}, el("tr", {}, el("th", {}, "Worker"), el("th", { class: "num" }, "Partitions held"))),
          el("tbody", {}, ...so.owners.map((o) => el("tr", { "data-worker": o.worker },
            el("td", {}, el("code", {}, o.worker), o.self ? " (this server)" : ""), el("td", { class: "num" }, o.partitions)))))] : []));
  }

  function fmtBytes(n) {
    if (n === null || n === undefined) return "—";
    for (const [div, unit] of [[1 << 30, "GiB"], [1 << 20, "MiB"], [1 << 10, "KiB"]]) {
      if (n >= div) return (n / div).toFixed(1) + " " + unit;
    }
    return n + " B";
  }

  async function loadPlan(name, pre) {
    pre.textContent = "Reading the plan…";
    try {
      const p = await api("GET", "/api/v1/streams/" + encodeURIComponent(name) + "/plan");
      pre.textContent = p.plan.join("\n");
    } catch (e) {
      pre.textContent = "Could not read the plan: " + e.message;
    }
  }

  async function loadDeadLetters(name, box) {
    box.replaceChildren(el("span", { class: "muted" }, "Reading the dead letters…"));
    try {
      const d = await api("GET", "/api/v1/streams/" + encodeURIComponent(name) + "/dead_letters");
      if (!d.location) {
        box.replaceChildren(el("span", { class: "muted" }, "No dead_letter_location: bad rows are counted, not kept."));
        return;
      }
      const head = el("div", { class: "muted" }, (d.rows.length ? "The newest " + d.rows.length + (d.rows.length === 1 ? " row" : " rows") : "No bad rows") + " in ", el("code", {}, d.location));
      const table = el("table", { class: "grid dead-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "File"), el("th", { class: "num" }, "Line"), el("th", {}, "Error"), el("th", {}, "Row"))),
        el("tbody", {}, ...d.rows.map((r) => el("tr", {},
          el("td", {}, el("code", {}, r.file)), el("td", { class: "num" }, r.line ? r.line : "—"),
          el("td", { class: "reason" }, r.reason), el("td", {}, el("code", {}, r.raw || ""))))));
      box.replaceChildren(head, ...(d.rows.length ? [table] : []));
    } catch (e) {
      box.replaceChildren(el("span", { class: "bad" }, "Could not read the dead letters: " + e.message));
    }
  }

  async function refreshHistory(name) {
    const c = cards.get(name);
    if (!c) return;
    const h = await api("GET", "/api/v1/streams/" + encodeURIComponent(name) + "/history");
    for (const spec of CHARTS) {
      c.charts[spec.key].setData(spec.data(h));
    }
    const noEventTime = h.watermark_delay_seconds.every((v) => v === null);
    c.notes.wm.textContent = noEventTime ? "· no event time" : "";
    const e = h.epochs, n = e.epoch.length;
    c.notes.phases.textContent = n ? "· epoch " + e.epoch[n - 1] + ": " + fmtMS(e.duration_ms[n - 1]) : "· no epoch yet";
  }

  // For the browser test: a chart of these values, drawn off to the side,
  // reports its y axis's width and its widest label's.
  window.__sluiceAxis = async (values) => {
    const box = el("div", {});
    box.style.cssText = "position:absolute;left:-2000px;width:300px"; // CSSOM: CSP allows it
    document.body.append(box);
    const u = newChart(CHARTS[0], box);
    u.setData([values.map((_, i) => 1700000000 + i), values, values.map(() => 0)]);
    await new Promise((r) => setTimeout(r, 50));
    const ax = u.axes[1];
    measure.font = AXIS_FONT;
    const out = { size: ax._size, labels: ax._values, widest: Math.max(...ax._values.map((v) => measure.measureText(String(v)).width)) };
    u.destroy();
    box.remove();
    return out;
  };
  window.__sluiceFmt = fmtCompact;

  // For tests and the curious: how many points a card's chart plots.
  window.__sluicePlotted = (name, key) => {
    const c = cards.get(name);
    return c && c.charts[key] ? c.charts[key].data[0].length : -1;
  };

  let streamsTimer = 0;
  async function refreshStreams() {
    clearTimeout(streamsTimer);
    if (!$("#login").hidden) return; // signed out: the sign-in restarts it
    if (document.hidden) { // a background tab costs the server nothing
      streamsTimer = setTimeout(refreshStreams, POLL_MS);
      return;
    }
    try {
      const data = await api("GET", "/api/v1/streams");
      renderStreamTable(data.streams);
      renderCards(data.streams);
      await Promise.all(data.streams.map((s) => refreshHistory(s.name)));
      if ($("#banner").dataset.poll) { banner(""); delete $("#banner").dataset.poll; }
    } catch (e) {
      if (e.status === 401) return;
      banner("Could not read the streams: " + e.message);
      $("#banner").dataset.poll = "1";
    }
    streamsTimer = setTimeout(refreshStreams, POLL_MS);
  }

  window.addEventListener("resize", () => {
    for (const c of cards.values()) {
      for (const spec of CHARTS) {
        c.charts[spec.key].setSize({ width: Math.max(200, c.chartEls[spec.key].clientWidth), height: 140 });
      }
    }
  });

  // ---- tables ----

  async function refreshTables() {
    try {
      const data = await api("GET", "/api/v1/tables");
      $("#table-table tbody").replaceChildren(...data.tables.map((t) => el("tr", { "data-table": t.name },
        el("td", {}, t.name),
        el("td", { class: "nowrap" }, t.using + (t.managed ? " (managed)" : "")),
        el("td", {}, el("code", {}, t.location || "")),
        el("td", {}, t.columns.map((c) => c.name + " " + c.type).join(", ")),
        el("td", {}, t.watermark || ""),
      )));
    } catch (e) {
      if (e.status === 401) return;
      banner("Could not read the tables: " + e.message);
    }
  }

  // ---- SQL ----

  function cell(v) {
    if (v === null || v === undefined) return el("td", { class: "null" }, "NULL");
    if (typeof v === "object") return el("td", {}, JSON.stringify(v));
    return el("td", { class: typeof v === "number" ? "num" : "" }, String(v));
  }

  async function runSQL(ev) {
    if (ev) ev.preventDefault();
    const query = $("#sql-text").value.trim();
    if (!query) return;
    const out = $("#sql-result");
    const status = $("#sql-status");
    $("#sql-run").disabled = true;
    status.textContent = "Running…";
    const t0 = performance.now();
    try {
      const r = await api("POST", "/_plugins/_sql", { query });
      const ms = Math.round(performance.now() - t0);
      const numeric = r.schema.map((_, i) => r.datarows.some((row) => typeof row[i] === "number"));
      const table = el("table", { class: "grid", id: "sql-table" },
        el("thead", {}, el("tr", {}, ...r.schema.map((c, i) => el("th", { title: c.type, class: numeric[i] ? "num" : "" }, c.name)))),
        el("tbody", {}, ...r.datarows.map((row) => el("tr", {}, ...row.map(cell)))));
      out.replaceChildren(table);
      const more = r.total > r.size ? " (first " + fmtInt(r.size) + " of " + fmtInt(r.total) + ")" : "";
      status.textContent = fmtInt(r.total) + (r.total === 1 ? " row" : " rows") + more + " in " + ms + " ms";
      if (r.cursor) api("POST", "/_plugins/_sql/close", { cursor: r.cursor }).catch(() => {});
      refreshTables();
    } catch (e) {
      out.replaceChildren(el("div", { class: "error", id: "sql-error" }, e.message));
      status.textContent = "Failed";
    } finally {
      $("#sql-run").disabled = false;
    }
  }

  // ---- sign-in ----

  let signingIn = false;
  let started = false;
  function showLogin(msg) {
    $("#login").hidden = false;
    $("#main").hidden = true;
    $("#sign-out").hidden = true;
    $("#login-error").textContent = msg || "";
    $("#who").textContent = "";
  }

  async function signIn(ev) {
    ev.preventDefault();
    const token = $("#login-token").value.trim();
    const user = $("#login-user").value;
    const pw = $("#login-password").value;
    if (!token && !user) { $("#login-error").textContent = "Give a token, or a user and password."; return; }
    // btoa takes Latin-1: encode the UTF-8 bytes of a user or password.
    const basic = () => btoa(String.fromCharCode(...new TextEncoder().encode(user + ":" + pw)));
    authorization = token ? "Bearer " + token : "Basic " + basic();
    signingIn = true;
    try {
      await whoami();
      sessionStorage.setItem(AUTH_KEY, authorization);
      $("#login-token").value = $("#login-password").value = "";
      $("#login").hidden = true;
      $("#main").hidden = false;
      banner("");
      run();
    } catch (e) {
      authorization = sessionStorage.getItem(AUTH_KEY) || "";
      $("#login-error").textContent = e.status === 401 ? "Sign-in failed: the token, or the user and password, is not valid." : "Sign-in failed: " + e.message;
    } finally {
      signingIn = false;
    }
  }

  function signOut() {
    sessionStorage.removeItem(AUTH_KEY);
    authorization = "";
    clearTimeout(streamsTimer);
    for (const c of cards.values()) { for (const ch of Object.values(c.charts)) ch.destroy(); c.root.remove(); }
    cards.clear();
    showLogin("Signed out.");
  }

  async function whoami() {
    const w = await api("GET", "/api/v1/whoami");
    who.role = w.role;
    if (w.csrf) csrfToken = w.csrf;
    $("#who").textContent = w.authentication ? w.user + " · " + w.role : "no authentication";
    $("#sign-out").hidden = !authorization;
    return w;
  }

  // run starts polling once signed in (again after a sign-out).
  function run() {
    refreshStreams();
    refreshTables();
    if (started) return;
    started = true;
    document.addEventListener("visibilitychange", () => { if (!document.hidden && $("#login").hidden) refreshStreams(); });
    setInterval(() => { if ($("#login").hidden) refreshTables(); }, TABLES_MS);
  }

  // ---- start ----

  async function start() {
    $("#login-form").addEventListener("submit", signIn);
    $("#sign-out").addEventListener("click", signOut);
    $("#sql-form").addEventListener("submit", runSQL);
    $("#sql-text").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) runSQL(ev);
    });
    try {
      await whoami();
    } catch (e) {
      if (e.status === 401) return; // the sign-in page is showing
      banner("Could not tell who you are: " + e.message);
    }
    run();
  }
  start();
})();
