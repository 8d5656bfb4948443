package server

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"sluice/internal/engine"
	"sluice/internal/sql"
)

// The audit log (Security.AuditLog, `sluice serve --audit-log FILE`) is
// one JSON object per line, written with log/slog's JSONHandler to a file
// opened append-only with mode 0600:
//
//	{"time":"2026-12-02T04:10:00.123Z","event":"statement","user":"alice","remote":"10.0.0.7:51234",
//	 "session":"3f…","endpoint":"POST /_plugins/_sql","lang":"sql","statement":"SELECT id FROM t",
//	 "kind":"select","role":"read","duration_ms":1.92,"rows":10,"status":200,"outcome":"ok"}
//
// # One record per statement
//
// Every API request runs one statement (the endpoints parse one:
// sql.ParseOne, ppl.Statement; a body with two is refused as a syntax
// error, and that refusal is its record), so a record per request is a
// record per statement: what an auditor asks ("who ran this, when, and
// did it work?") is answered by one line, and never has to be split out
// of a list. The events:
//
//   - "statement": a request to a query endpoint (/_plugins/_sql, _ppl,
//     their _explain, /api/v1/statement, an async submission and cancel,
//     /api/v1/streams/{name}/start and stop), with the statement it ran
//     or tried to run.
//   - "fetch": the next page of a cursor (no statement: the one that
//     opened it has its own record, with rows of its first page and
//     "more": true).
//   - "refused": a request refused before any statement was read: 401
//     (no, malformed or wrong credentials: "user" is the basic-auth name
//     tried, "auth" the scheme; never a password or token), 403 (the
//     route's role, the console's anti-CSRF token, or, without
//     authentication, the Host check against DNS rebinding), 429 (every
//     query slot taken).
//   - "reload": a reload by SIGHUP (endpoint "SIGHUP", no user) or POST
//     /api/v1/reload, with what it reloaded, what needs a restart and the
//     parts that failed (audit_reload.go).
//   - "async_end": an async query's statement returned: its final status
//     (SUCCESS, FAILED, CANCELLED; a streaming one RUNNING once its
//     stream started: the stream's own end is the server log's), rows,
//     and the time since submission. Both the submission ("statement",
//     with query_id) and the end are logged, so a query the server
//     stopped before its end still shows who submitted it.
//
// # Fields
//
// time (UTC), event, user (the authenticated caller; "" without
// authentication), remote (the connection's address: a proxy's
// X-Forwarded-For is not trusted), session (the session id the request
// named or was given; "" for a one-request session), endpoint (method
// and path), lang (sql or ppl), statement, kind (select, insert, stream,
// explain, explain_analyze, set, metadata, ddl; unparsed for a text
// that did not parse; fetch; cancel for an async DELETE), role (the role the statement
// needs: sql.ReadOnly read, sql.WritesData write, else admin), query_id
// (async), duration_ms, rows (returned in the response, or inserted by
// an INSERT; absent when unknown), more (rows follow behind a cursor),
// status (HTTP), outcome (ok, error, refused; cancelled for async),
// error_class (the plugin's exception type, e.g. SyntaxCheckException)
// and error (its message, redacted, cut at 300 bytes). A request refused
// at the door ("refused" but for 429) has no session, statement or
// duration_ms, and says which credentials it tried: auth is basic,
// bearer, none or other.
//
// # Secrets
//
// The statement is never the raw text: a parsed statement is
// sql.Statement.String() (credential options as ***), a text that did
// not parse is sql.RedactText of it, and both then pass redactSecrets,
// the server's redaction of every log line and error (it also hides
// key 'value' pairs whose key names a credential, which a statement that
// failed to parse may still hold).
//
// # Cost
//
// A record is written to a 64 KiB buffer under a mutex: no request waits
// for the disk. The buffer is flushed every second, when full, and when
// the server closes (Server.Close, after the async queries ended, so
// their async_end records are in the file); a crash loses at most the
// last second of records.
type auditLog struct {
	f   *os.File
	log *slog.Logger

	mu     sync.Mutex
	w      *bufio.Writer
	failed bool // a write failed (reported once)
	logf   func(string, ...any)

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// auditFlushEvery is how often the audit buffer reaches the file.
const auditFlushEvery = time.Second

// openAuditLog opens (creating) path append-only with mode 0600; an
// existing regular file with a wider mode is narrowed to 0600.
func openAuditLog(path string, logf func(string, ...any)) (*auditLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, fmt.Errorf("audit log %s has mode %o and cannot be made 0600: %w", path, fi.Mode().Perm(), err)
		}
		logf("audit log %s had mode %o; it is now 0600", path, fi.Mode().Perm())
	}
	a := &auditLog{f: f, w: bufio.NewWriterSize(f, 64<<10), logf: logf, stop: make(chan struct{}), done: make(chan struct{})}
	a.log = slog.New(slog.NewJSONHandler(a, &slog.HandlerOptions{ReplaceAttr: auditAttr}))
	go a.flusher()
	return a, nil
}

// auditAttr puts the time in UTC, names the message "event" and drops
// the level (every record is the same level).
func auditAttr(groups []string, a slog.Attr) slog.Attr {
	if len(groups) > 0 {
		return a
	}
	switch a.Key {
	case slog.TimeKey:
		return slog.Time(slog.TimeKey, a.Value.Time().UTC())
	case slog.LevelKey:
		return slog.Attr{}
	case slog.MessageKey:
		return slog.String("event", a.Value.String())
	}
	return a
}

// Write takes one record from the JSON handler into the buffer.
func (a *auditLog) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n, err := a.w.Write(p)
	a.failedLocked(err)
	return n, err
}

func (a *auditLog) failedLocked(err error) {
	if err != nil && !a.failed {
		a.failed = true
		a.logf("audit log %s: %v (records are being lost)", a.f.Name(), err)
	}
}

func (a *auditLog) flush() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failedLocked(a.w.Flush())
}

func (a *auditLog) flusher() {
	defer close(a.done)
	t := time.NewTicker(auditFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-a.stop:
			return
		case <-t.C:
			a.flush()
		}
	}
}

// Close flushes the buffer and closes the file; nil-safe, once.
func (a *auditLog) Close() error {
	if a == nil {
		return nil
	}
	var err error
	a.once.Do(func() {
		close(a.stop)
		<-a.done
		a.mu.Lock()
		defer a.mu.Unlock()
		err = a.w.Flush()
		if serr := a.f.Sync(); err == nil && serr != nil && !strings.Contains(serr.Error(), "invalid argument") {
			err = serr
		}
		if cerr := a.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			err = fmt.Errorf("audit log: %w", err)
		}
	})
	return err
}

// auditEntry is one record in the making: the audited wrapper starts it
// with the request, the handlers note what they learn (one call each:
// auditStatement, auditResult, auditPage, auditSession, auditLang,
// auditFetch, auditCancel, auditAsync; writeError calls auditError), and
// the wrapper writes it when the handler returns. It belongs to the
// request's goroutine.
type auditEntry struct {
	start     time.Time
	endpoint  string
	lang      string
	user      string
	remote    string
	session   string
	statement string
	kind      string
	role      string
	queryID   string
	rows      int // -1: unknown
	more      bool
	affected  bool // rows are an INSERT's, not the response's
	errClass  string
	errText   string
}

type auditKey struct{}

func auditFrom(ctx context.Context) *auditEntry {
	e, _ := ctx.Value(auditKey{}).(*auditEntry)
	return e
}

// auditUser is the caller's name for a record: "" without authentication.
func (s *Server) auditUser(ctx context.Context) string {
	if s.auth == nil {
		return ""
	}
	p, _ := principalFrom(ctx)
	return p.name
}

func (s *Server) newAuditEntry(r *http.Request) *auditEntry {
	e := &auditEntry{start: time.Now(), endpoint: r.Method + " " + r.URL.Path, lang: "sql",
		user: s.auditUser(r.Context()), remote: r.RemoteAddr, rows: -1}
	if strings.Contains(r.URL.Path, "/_ppl") {
		e.lang = "ppl"
	}
	return e
}

// audited writes one record for each request h answers (when the server
// has an audit log): limitQueries wraps every query endpoint in it, so a
// 429 is recorded too.
func (s *Server) audited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.audit == nil {
			h(w, r)
			return
		}
		e := s.newAuditEntry(r)
		aw := &auditWriter{ResponseWriter: w, e: e}
		h(aw, r.WithContext(context.WithValue(r.Context(), auditKey{}, e)))
		s.audit.write(e, aw.status())
	}
}

// auditWriter sees a response's status, and lets writeError hand the
// entry its error.
type auditWriter struct {
	http.ResponseWriter
	e    *auditEntry
	code int
}

func (w *auditWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *auditWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *auditWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *auditWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// auditEntryOf finds the entry of the auditWriter under w, if any.
func auditEntryOf(w http.ResponseWriter) *auditEntry {
	for w != nil {
		if aw, ok := w.(*auditWriter); ok {
			return aw.e
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}

// auditStatement notes the statement a request runs: st as it prints
// (secrets as ***), or, when text did not parse (st nil), the text
// redacted. lang, when not "", is the request's language.
func auditStatement(ctx context.Context, lang, text string, st sql.Statement) {
	e := auditFrom(ctx)
	if e == nil {
		return
	}
	if lang != "" {
		e.lang = lang
	}
	if st == nil {
		e.statement, e.kind = redactSecrets(sql.RedactText(text)), "unparsed"
		return
	}
	e.statement, e.kind, e.role = redactSecrets(st.String()), statementKind(st), statementRole(st).String()
}

// statementKind classifies a statement for the audit log.
func statementKind(st sql.Statement) string {
	switch s := st.(type) {
	case *sql.SelectStmt:
		return "select"
	case *sql.Insert:
		return "insert"
	case *sql.InsertStream, *sql.StartStream, *sql.StopStream:
		return "stream"
	case *sql.Explain:
		if s.Mode == sql.ExplainAnalyze {
			return "explain_analyze"
		}
		return "explain"
	case *sql.Set, *sql.Reset:
		return "set"
	}
	if sql.ReadOnly(st) {
		return "metadata" // SHOW, DESCRIBE, USE
	}
	return "ddl"
}

// statementRole is the role authorizeStatement asks for st.
func statementRole(st sql.Statement) Role {
	switch {
	case sql.ReadOnly(st):
		return RoleRead
	case sql.WritesData(st):
		return RoleWrite
	}
	return RoleAdmin
}

// auditResult notes a statement's result that has no rows (a message):
// an INSERT's gives the rows it wrote.
func auditResult(ctx context.Context, res *engine.Result) {
	e := auditFrom(ctx)
	if e == nil || res == nil || res.Schema != nil {
		return
	}
	e.affected = true
	if res.Wrote {
		e.rows = int(res.Written)
	}
}

// auditPage notes the rows a response carries, and whether a cursor
// holds more.
func auditPage(w http.ResponseWriter, p page) {
	e := auditEntryOf(w)
	if e == nil || e.affected {
		return
	}
	e.rows, e.more = p.to-p.from, p.cursor != ""
}

// auditFetch marks a request as a cursor's next page.
func auditFetch(ctx context.Context) {
	if e := auditFrom(ctx); e != nil {
		e.kind = "fetch"
	}
}

// auditLang notes a request's language when its body names PPL.
func auditLang(ctx context.Context, lang string) {
	if e := auditFrom(ctx); e != nil && strings.EqualFold(lang, "ppl") {
		e.lang = "ppl"
	}
}

// auditSession notes the session id a request runs in.
func auditSession(ctx context.Context, id string) {
	if e := auditFrom(ctx); e != nil {
		e.session = id
	}
}

// auditCancel marks a request as the cancel of async query id (a
// streaming one's STOP STREAM is then its statement).
func auditCancel(ctx context.Context, id string) {
	if e := auditFrom(ctx); e != nil {
		e.kind, e.queryID = "cancel", id
	}
}

// auditError notes the error a response answers (writeError calls it).
func auditError(w http.ResponseWriter, body errorBody) {
	if e := auditEntryOf(w); e != nil {
		e.errClass, e.errText = body.Error.Type, truncate(body.Error.Details, 300)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// outcome is ok, error or refused (401, 403, 421, 429) for an HTTP
// status.
func outcome(status int) string {
	switch {
	case status == http.StatusUnauthorized, status == http.StatusForbidden,
		status == http.StatusMisdirectedRequest, status == http.StatusTooManyRequests:
		return "refused"
	case status >= 400:
		return "error"
	}
	return "ok"
}

// write logs the entry once its response was answered with status.
func (a *auditLog) write(e *auditEntry, status int) {
	event := "statement"
	switch {
	case e.kind == "fetch":
		event = "fetch"
	case e.statement == "" && outcome(status) == "refused":
		event = "refused"
	}
	attrs := []slog.Attr{slog.String("user", e.user), slog.String("remote", e.remote),
		slog.String("session", e.session), slog.String("endpoint", e.endpoint)}
	if event != "refused" {
		attrs = append(attrs, slog.String("lang", e.lang), slog.String("statement", e.statement), slog.String("kind", e.kind))
		if e.role != "" {
			attrs = append(attrs, slog.String("role", e.role))
		}
	}
	if e.queryID != "" {
		attrs = append(attrs, slog.String("query_id", e.queryID))
	}
	attrs = append(attrs, durationMS(time.Since(e.start)))
	if e.rows >= 0 {
		attrs = append(attrs, slog.Int("rows", e.rows))
	}
	if e.more {
		attrs = append(attrs, slog.Bool("more", true))
	}
	attrs = append(attrs, slog.Int("status", status), slog.String("outcome", outcome(status)))
	attrs = e.appendError(attrs)
	a.log.LogAttrs(context.Background(), slog.LevelInfo, event, attrs...)
}

func (e *auditEntry) appendError(attrs []slog.Attr) []slog.Attr {
	if e.errClass != "" {
		attrs = append(attrs, slog.String("error_class", e.errClass), slog.String("error", e.errText))
	}
	return attrs
}

func durationMS(d time.Duration) slog.Attr {
	return slog.Float64("duration_ms", float64(d.Microseconds())/1000)
}

// auditRefused logs a request refused before its handler: 401 (user is
// the name tried), 403 (the route's role, the anti-CSRF token, the Host
// check). err is what the caller was answered.
func (s *Server) auditRefused(r *http.Request, user string, status int, err error) {
	if s.audit == nil {
		return
	}
	e := s.newAuditEntry(r)
	e.user = user
	body := classify(err)
	e.errClass, e.errText = body.Error.Type, truncate(redactSecrets(err.Error()), 300)
	if status == http.StatusUnauthorized {
		e.errClass = "SecurityException"
	}
	attrs := []slog.Attr{slog.String("user", e.user), slog.String("auth", authScheme(r)), slog.String("remote", e.remote),
		slog.String("endpoint", e.endpoint), slog.Int("status", status), slog.String("outcome", outcome(status))}
	attrs = e.appendError(attrs)
	s.audit.log.LogAttrs(context.Background(), slog.LevelInfo, "refused", attrs...)
}

// refuse answers err to a request refused before its handler (the
// caller p: the route's role, the anti-CSRF token, the Host check) and
// logs the refusal.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, p principal, err error) {
	user := ""
	if s.auth != nil {
		user = p.name
	}
	s.auditRefused(r, user, classify(err).Status, err)
	writeError(w, err)
}

// triedUser is the basic-auth name a request tried ("" for a token or
// none): never its password.
func triedUser(r *http.Request) string {
	name, _, ok := r.BasicAuth()
	if !ok {
		return ""
	}
	return truncate(name, 200)
}

// authScheme is the scheme of r's Authorization header: basic, bearer,
// none or other.
func authScheme(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "none"
	}
	scheme, _, _ := strings.Cut(h, " ")
	switch strings.ToLower(scheme) {
	case "basic", "bearer":
		return strings.ToLower(scheme)
	}
	return "other"
}

// auditAsync notes an async submission's query and session, and returns
// what logs its end (async_end) when its statement returns: rec as the
// store has it then, and the statement's error.
func (s *Server) auditAsync(ctx context.Context, rec asyncRecord) func(end asyncRecord, err error) {
	e := auditFrom(ctx)
	if e == nil || s.audit == nil {
		return func(asyncRecord, error) {}
	}
	e.queryID, e.session = rec.ID, rec.SessionID
	sub := *e
	return func(end asyncRecord, err error) {
		status := "ok"
		switch end.Status {
		case asyncFailed:
			status = "error"
		case asyncCancelled:
			status = "cancelled"
		}
		attrs := []slog.Attr{slog.String("user", sub.user), slog.String("remote", sub.remote), slog.String("session", sub.session),
			slog.String("endpoint", sub.endpoint), slog.String("lang", sub.lang), slog.String("statement", sub.statement),
			slog.String("kind", sub.kind), slog.String("role", sub.role), slog.String("query_id", sub.queryID),
			durationMS(time.Since(sub.start)), slog.String("async_status", end.Status)}
		if end.Status == asyncSuccess {
			attrs = append(attrs, slog.Int("rows", end.Rows))
		}
		attrs = append(attrs, slog.String("outcome", status))
		if err != nil {
			body := classify(err)
			attrs = append(attrs, slog.String("error_class", body.Error.Type), slog.String("error", truncate(redactSecrets(body.Error.Details), 300)))
		}
		s.audit.log.LogAttrs(context.Background(), slog.LevelInfo, "async_end", attrs...)
	}
}
