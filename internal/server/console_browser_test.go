package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"sluice/internal/testutil/integration"
)

// chromiumPath finds Debian's chromium (scripts/chromium.sh installs it).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	integration.Unavailable(t, "CHROMIUM UNAVAILABLE: no chromium on PATH (run scripts/chromium.sh); skipping the web console's browser test")
	return ""
}

// browserTab is one tab of a headless Chromium that sends user's basic
// auth with every request and records the page's console errors,
// uncaught exceptions and browser log errors (failed loads, CSP).
type browserTab struct {
	ctx context.Context

	mu     sync.Mutex
	errors []string
}

// take returns the problems recorded so far and forgets them.
func (b *browserTab) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.errors
	b.errors = nil
	return out
}

// noProblems fails t for every problem recorded so far, except want: a
// failed response the browser logged that the step asked for (the
// browser logs every 4xx a fetch gets).
func (b *browserTab) noProblems(t *testing.T, who string, want ...string) {
	t.Helper()
	got := b.take()
	for _, p := range got {
		expected := false
		for _, w := range want {
			expected = expected || strings.Contains(p, w)
		}
		if !expected {
			t.Errorf("browser (%s): %s", who, p)
		}
	}
}

// startChromium starts a headless Chromium for the test.
func startChromium(t *testing.T, chromium string) context.Context {
	t.Helper()
	// Chromium keeps its singleton socket in a folder under TMPDIR that a
	// killed browser leaves behind: a test folder instead of /tmp.
	browserTmp := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 1100), chromedp.Flag("disable-dev-shm-usage", true), chromedp.Env("TMPDIR="+browserTmp))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	bctx, cancel := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancel)
	if err := chromedp.Do(bctx); err != nil {
		integration.Unavailable(t, "CHROMIUM UNAVAILABLE: %s does not start: %v", chromium, err)
	}
	return bctx
}

// newTab opens a tab that sends user's basic auth with every request
// (user "": none, as a browser that has not signed in).
func newTab(t *testing.T, parent context.Context, user, password string) *browserTab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent)
	t.Cleanup(cancel)
	b := &browserTab{ctx: ctx}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a chromium tab: %v", err)
	}
	if user != "" {
		auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
		if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Authorization": auth}}); err != nil {
			t.Fatalf("starting a chromium tab: %v", err)
		}
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.errors = append(b.errors, fmt.Sprintf("%s %s:%d %s", m.Type, m.URL, m.Line+1, m))
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// waitText polls sel's text until ok accepts it.
func (b *browserTab) waitText(t *testing.T, sel, what string, ok func(string) bool) string {
	t.Helper()
	var txt string
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		cancel()
		if txt = strings.TrimSpace(got); err == nil && ok(txt) {
			return txt
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: %s is %q after 20s", what, sel, txt)
	return ""
}

func (b *browserTab) do(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func (b *browserTab) count(t *testing.T, sel string) int {
	t.Helper()
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
	if err != nil {
		t.Fatalf("counting %s: %v", sel, err)
	}
	return n
}

// TestConsoleInBrowser loads the web console in headless Chromium against
// a server with a running stream: the page shows the stream's rows in
// moving as files arrive, draws its charts, runs SQL from the SQL box,
// stops and starts the stream for an admin, offers a read user no
// buttons, and logs no console error or exception on the way.
func TestConsoleInBrowser(t *testing.T) {
	chromium := chromiumPath(t)
	f := newAuthFixture(t, func(o *Options) { o.HistoryInterval = 200 * time.Millisecond })
	in := filepath.Join(f.dir, "in")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+filepath.Join(f.dir, "out")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '200 milliseconds')")
	// A stream with event time (its watermark delay is charted) and a view.
	now := time.Now().UTC()
	writeFile(t, filepath.Join(f.dir, "ev", "part0.json"), fmt.Sprintf(`{"id": 1, "ts": "%s"}`+"\n", now.Add(-30*time.Second).Format(time.RFC3339)))
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE ev (id BIGINT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECOND) USING json LOCATION '"+filepath.Join(f.dir, "ev")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE evout (id BIGINT, ts TIMESTAMP) USING json LOCATION '"+filepath.Join(f.dir, "evout")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO evout SELECT id, ts FROM ev WITH (name = 'clicks', trigger = '200 milliseconds')")
	// A stream that fails on its first file: its last error is shown.
	writeFile(t, filepath.Join(f.dir, "nums", "part0.json"), `{"v": "x"}`+"\n")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE nums (v STRING) USING json LOCATION '"+filepath.Join(f.dir, "nums")+"/' OPTIONS (mode 'FAILFAST')")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE numsout (n BIGINT) USING json LOCATION '"+filepath.Join(f.dir, "numsout")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO numsout SELECT CAST(v AS BIGINT) AS n FROM nums WITH (name = 'bad', trigger = '200 milliseconds')")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE MATERIALIZED VIEW names AS SELECT name, count(*) AS n FROM t GROUP BY name WITH (auto_refresh = true, refresh_interval = '500 milliseconds')")

	bctx := startChromium(t, chromium)

	admin := newTab(t, bctx, "alice", "alice-pw")
	// GET / with a browser's Accept header lands on the console.
	admin.do(t, "loading the console", chromedp.Navigate(f.url+"/"),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-stream="feed"] .state.running`)))
	loc, err := chromedp.Run(admin.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(loc, ConsolePath) {
		t.Errorf("GET / in a browser went to %s, want %s", loc, ConsolePath)
	}
	admin.waitText(t, "#who", "who", func(s string) bool { return s == "alice · admin" })
	admin.waitText(t, `tr[data-stream="feed"] .rows-in`, "rows in before new files", func(s string) bool { return s == "10" })

	// New files: the numbers move without a reload.
	var b strings.Builder
	for i := 10; i < 1210; i++ {
		fmt.Fprintf(&b, `{"id": %d, "name": "n%d"}`+"\n", i, i)
	}
	writeFile(t, filepath.Join(in, "part1.json"), b.String())
	// An epoch's watermark comes from the epochs before: a second file moves it.
	writeFile(t, filepath.Join(f.dir, "ev", "part1.json"), fmt.Sprintf(`{"id": 2, "ts": "%s"}`+"\n", now.Add(-20*time.Second).Format(time.RFC3339)))
	admin.waitText(t, `tr[data-stream="feed"] .rows-in`, "rows in after a new file", func(s string) bool { return s == "1,210" })
	admin.waitText(t, `tr[data-stream="feed"] .rows-out`, "rows out after a new file", func(s string) bool { return s == "1,210" })
	// The event-time stream shows its watermark's delay (about 40 s).
	admin.waitText(t, `tr[data-stream="clicks"] .wm-delay`, "watermark delay", func(s string) bool { return strings.HasSuffix(s, " s") })
	admin.waitText(t, `#card-clicks .fig-watermark`, "its watermark", func(s string) bool {
		return strings.HasPrefix(s, "Watermark "+now.Format("2006-01-02")) && strings.HasSuffix(s, " UTC")
	})
	admin.waitText(t, `tr[data-stream="bad"] .state`, "a failed stream", func(s string) bool { return s == "failed" })
	admin.waitText(t, `#card-bad .error`, "its last error", func(s string) bool { return strings.Contains(s, "cannot cast 'x' to BIGINT") })
	if n := admin.count(t, `#card-bad button[data-action="start"]`); n != 1 {
		t.Errorf("a failed stream offers %d start buttons, want 1", n)
	}
	admin.waitText(t, `tr[data-stream="names"] .kind`, "the view", func(s string) bool { return s == "view" })
	if n := admin.count(t, `#card-feed .uplot canvas`); n != 5 {
		t.Errorf("the feed's card has %d charts, want 5", n)
	}
	// Epoch duration by phase and input against processing rate, from
	// the epochs the history kept.
	admin.waitText(t, `#card-feed .chart-phases h4 .note`, "the last epoch's duration", func(s string) bool {
		return strings.HasPrefix(s, "· epoch ") && strings.HasSuffix(s, " ms")
	})
	for _, sel := range []string{`#card-feed .chart-phases .u-legend`, `#card-feed .chart-inproc .u-legend`} {
		legend := admin.waitText(t, sel, "a chart's legend", func(string) bool { return true })
		if !strings.Contains(legend, "checkpoint") && !strings.Contains(legend, "processing") {
			t.Errorf("%s: %q", sel, legend)
		}
	}
	plotted, err := chromedp.Run(admin.ctx, chromedp.Evaluate[int](
		`document.querySelector("#card-feed .chart-phases .uplot") ? window.__sluicePlotted("feed", "phases") : -1`))
	if err != nil || plotted < 1 {
		t.Errorf("the phases chart plots %d epochs (%v), want at least 1", plotted, err)
	}
	// The charts' data: the history saw the new rows arrive.
	var h HistoryJSON
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		h = f.history(t, "feed")
		if maxRate(h.RowsInPerSecond) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if maxRate(h.RowsInPerSecond) <= 0 || len(h.Time) != len(h.LagFiles) || h.IntervalSeconds != 0.2 {
		t.Errorf("history has no rows per second: %+v", h)
	}
	if h := f.history(t, "clicks"); maxRate(h.WatermarkDelaySeconds) < 30 {
		t.Errorf("clicks' history has no watermark delay: %+v", h)
	}

	// The y axis fits its labels, written compactly.
	for _, c := range []struct{ in, want string }{{"950", "950"}, {"12000", "12k"}, {"1234567", "1.2M"}, {"2.5", "2.5"}, {"45000000000", "45G"}} {
		got, err := chromedp.Run(admin.ctx, chromedp.Evaluate[string]("window.__sluiceFmt("+c.in+")"))
		if err != nil || got != c.want {
			t.Errorf("axis label of %s: %q (%v), want %q", c.in, got, err, c.want)
		}
	}
	type axis struct {
		Size   float64
		Widest float64
		Labels []string
	}
	for _, values := range []string{"[1, 2, 3]", "[12000, 25000, 40000]", "[900000, 1500000, 2400000]", "[0.2, 0.5, 0.9]"} {
		a, err := chromedp.Run(admin.ctx, chromedp.Evaluate[axis]("window.__sluiceAxis("+values+")", chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("axis of %s: %v", values, err)
		}
		t.Logf("axis of %s: %v px, labels %q, widest %.1f px", values, a.Size, a.Labels, a.Widest)
		if len(a.Labels) == 0 || a.Size < a.Widest+8 || a.Size > a.Widest+30 {
			t.Errorf("axis of %s: %v px for labels %q (widest %.1f px): want the labels' width and a little", values, a.Size, a.Labels, a.Widest)
		}
	}

	// The SQL box runs a query and shows its result table.
	admin.do(t, "running SQL", chromedp.SetValue(chromedp.CSS("#sql-text"), "SELECT id, id * 10 AS tens FROM t WHERE id < 3 ORDER BY id"),
		chromedp.Click(chromedp.CSS("#sql-run")), chromedp.WaitVisible(chromedp.CSS("#sql-table tbody tr")))
	if got := admin.waitText(t, "#sql-table", "the result table", func(string) bool { return true }); !strings.Contains(got, "2\t20") {
		t.Errorf("result table: %q", got)
	}
	if n := admin.count(t, "#sql-table tbody tr"); n != 3 {
		t.Errorf("result table has %d rows, want 3", n)
	}
	admin.waitText(t, "#sql-status", "SQL status", func(s string) bool { return strings.HasPrefix(s, "3 rows in ") })

	shot := filepath.Join(t.TempDir(), "console.png")
	if dir := os.Getenv("SLUICE_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "console.png")
	}
	png, err := chromedp.Run(admin.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("taking a screenshot: %v", err)
	}
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)

	admin.noProblems(t, "admin")
	// An error is shown, not thrown.
	admin.do(t, "running bad SQL", chromedp.SetValue(chromedp.CSS("#sql-text"), "SELECT nope FROM t"),
		chromedp.Click(chromedp.CSS("#sql-run")), chromedp.WaitVisible(chromedp.CSS("#sql-error")))
	admin.waitText(t, "#sql-error", "SQL error", func(s string) bool { return strings.Contains(s, `column "nope" not found`) })

	admin.noProblems(t, "admin", "/_plugins/_sql:1 error: Failed to load resource: the server responded with a status of 400")
	// Stop and start from the buttons.
	admin.do(t, "stopping", chromedp.Click(chromedp.CSS(`#card-feed button[data-action="stop"]`)))
	admin.waitText(t, `tr[data-stream="feed"] .state`, "state after stop", func(s string) bool { return s == "stopped" })
	admin.do(t, "starting", chromedp.Click(chromedp.CSS(`#card-feed button[data-action="start"]`)))
	admin.waitText(t, `tr[data-stream="feed"] .state`, "state after start", func(s string) bool { return s == "running" })

	// A read user sees the streams and charts, and no buttons.
	reader := newTab(t, bctx, "bob", "bob-pw")
	reader.do(t, "loading the console as a read user", chromedp.Navigate(f.url+ConsolePath),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-stream="feed"] .state.running`)))
	reader.waitText(t, "#who", "who", func(s string) bool { return s == "bob · read" })
	if n := reader.count(t, "button[data-action]"); n != 0 {
		t.Errorf("a read user is offered %d start/stop buttons", n)
	}
	reader.noProblems(t, "read user")
	// Its SQL box runs queries, and a statement its role may not run
	// shows the server's 403 as a message.
	reader.do(t, "running DDL as a read user", chromedp.SetValue(chromedp.CSS("#sql-text"), "DROP TABLE out"),
		chromedp.Click(chromedp.CSS("#sql-run")), chromedp.WaitVisible(chromedp.CSS("#sql-error")))
	reader.waitText(t, "#sql-error", "403 for a read user", func(s string) bool { return strings.HasPrefix(s, "Not allowed: user bob has role read") })

	reader.noProblems(t, "read user", "/_plugins/_sql:1 error: Failed to load resource: the server responded with a status of 403")
	admin.noProblems(t, "admin")
}

func maxRate(xs []*float64) float64 {
	m := 0.0
	for _, x := range xs {
		if x != nil && *x > m {
			m = *x
		}
	}
	return m
}

// history reads a stream's history as alice.
func (f *authFixture) history(t *testing.T, name string) HistoryJSON {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.url+APIStreamsPath+"/"+name+"/history", nil)
	req.SetBasicAuth("alice", "alice-pw")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h HistoryJSON
	if resp.StatusCode != 200 {
		t.Fatalf("history of %s: status %d", name, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}
