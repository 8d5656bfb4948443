package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// auditRec is one line of the audit log.
type auditRec map[string]any

func (r auditRec) str(k string) string { s, _ := r[k].(string); return s }

func (r auditRec) num(k string) (float64, bool) { n, ok := r[k].(float64); return n, ok }

// readAudit flushes the server's audit log and parses it line by line.
func readAudit(t *testing.T, srv *Server, path string) []auditRec {
	t.Helper()
	srv.audit.flush()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []auditRec
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r auditRec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %d is not JSON: %v: %s", len(out)+1, err, sc.Bytes())
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// findAudit is the one record with every field of want (strings, or
// numbers as float64).
func findAudit(t *testing.T, recs []auditRec, want map[string]any) auditRec {
	t.Helper()
	var found []auditRec
next:
	for _, r := range recs {
		for k, v := range want {
			if r[k] != v {
				continue next
			}
		}
		found = append(found, r)
	}
	if len(found) != 1 {
		var b strings.Builder
		for _, r := range recs {
			j, _ := json.Marshal(r)
			b.Write(j)
			b.WriteByte('\n')
		}
		t.Fatalf("%d audit records with %v, want 1; the log:\n%s", len(found), want, b.String())
	}
	return found[0]
}

// auditPost posts body (JSON) to path as user (see authFixture.do) and
// returns the status and response.
func auditPost(t *testing.T, url, path, user, pw string, body any) (int, []byte) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if user != "" {
		req.SetBasicAuth(user, pw)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// TestAuditLog: with --audit-log every statement through the API is one
// JSON line with its user, remote address, session, endpoint, language,
// redacted statement, kind, duration, rows and outcome; refusals (401
// with the name tried, 403 for a role with the statement, 429) are lines
// too; an async query has its submission and its end; no password, in a
// statement or in credentials, reaches the file, which is mode 0600.
func TestAuditLog(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "audit.log")
	f := newAuthFixture(t, func(o *Options) {
		o.Security.AuditLog = logPath
		o.Limits.MaxConcurrentQueries = 1
	})
	const admin, adminPW = "alice", "alice-pw"

	// SQL through the plugin's endpoint, jdbc: its rows.
	f.do(200, "/_plugins/_sql", admin, adminPW, "SELECT id FROM t WHERE id < 4")
	// A credential in a statement, parsed (printed as ***) and not
	// (its text redacted).
	f.do(200, "/_plugins/_sql", admin, adminPW, "CREATE TABLE sec (id BIGINT) USING json LOCATION '"+filepath.Join(f.dir, "sec")+"/' OPTIONS (access_key 'AKIAEXAMPLE', secret_key 'hunter2')")
	f.do(400, "/_plugins/_sql", admin, adminPW, "CREATE TABLE pw (id BIGINT) USING json LOCATION '"+filepath.Join(f.dir, "pw")+"/' OPTIONS (password 'hunter2')")
	f.do(400, "/_plugins/_sql", admin, adminPW, "CREATE TABLE bad (id BIGINT OPTIONS (password 'hunter2'")
	// A jdbc page with a cursor, and the next page.
	st, body := auditPost(t, f.url, "/_plugins/_sql", admin, adminPW, map[string]any{"query": "SELECT name FROM t", "fetch_size": 4})
	var page struct{ Cursor string }
	if err := json.Unmarshal(body, &page); st != 200 || err != nil || page.Cursor == "" {
		t.Fatalf("paged SELECT: %d %v %s", st, err, body)
	}
	if st, body := auditPost(t, f.url, "/_plugins/_sql", admin, adminPW, map[string]any{"cursor": page.Cursor}); st != 200 {
		t.Fatalf("next page: %d %s", st, body)
	}
	// PPL.
	f.do(200, "/_plugins/_ppl", admin, adminPW, "source=t | head 3")
	// /api/v1/statement, in a session, and an INSERT's rows.
	st, body = auditPost(t, f.url, APIStatementPath, admin, adminPW, map[string]any{"query": "SELECT 1 AS one"})
	var sr StatementResponse
	if err := json.Unmarshal(body, &sr); st != 200 || err != nil || sr.SessionID == "" {
		t.Fatalf("statement: %d %v %s", st, err, body)
	}
	if st, body := auditPost(t, f.url, APIStatementPath, "wendy", "wendy-pw",
		map[string]any{"query": "INSERT INTO sec VALUES (1), (2)"}); st != 200 {
		t.Fatalf("insert: %d %s", st, body)
	}
	// A read user refused a DROP (403), a wrong password (401).
	f.do(403, "/_plugins/_sql", "bob", "bob-pw", "DROP TABLE t")
	f.do(401, "/_plugins/_sql", "bob", "not-bobs-pw", "SELECT 1")
	f.do(403, "/api/v1/streams/x/start", "bob", "bob-pw", "")
	// Async: its submission and its end.
	st, body = auditPost(t, f.url, AsyncQueryPath, admin, adminPW, map[string]any{"datasource": "sluice", "lang": "sql", "query": "SELECT count(*) FROM t"})
	var sub struct{ QueryID, SessionID string }
	if err := json.Unmarshal(body, &sub); st != 201 || err != nil || sub.QueryID == "" {
		t.Fatalf("async submit: %d %v %s", st, err, body)
	}

	// It holds the one slot until it ends.
	for deadline := time.Now().Add(15 * time.Second); len(f.srv.queries) > 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the async query never gave its slot back")
		}
	}

	// The slot limit (1) full: a request whose body is still coming
	// holds it.
	pr, pw := io.Pipe()
	held := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, f.url+"/_plugins/_sql", pr)
		req.SetBasicAuth(admin, adminPW)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			held <- 0
			return
		}
		resp.Body.Close()
		held <- resp.StatusCode
	}()
	_, _ = pw.Write([]byte(`{"query": `))
	for deadline := time.Now().Add(10 * time.Second); len(f.srv.queries) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the slow request never took its query slot")
		}
	}
	f.do(429, "/_plugins/_ppl", admin, adminPW, "source=t")
	_, _ = pw.Write([]byte(`"SELECT 2"}`))
	pw.Close()
	if st := <-held; st != 200 {
		t.Fatalf("the slow request: %d", st)
	}

	var recs []auditRec
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		recs = readAudit(t, f.srv, logPath)
		n := 0
		for _, r := range recs {
			if r.str("event") == "async_end" {
				n++
			}
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no async_end record: %v", recs)
		}
	}
	// Cancelling it now is too late (400), and logged.
	if b := f.call(http.MethodDelete, AsyncQueryPath+"/"+sub.QueryID, admin, adminPW, 400); !strings.Contains(string(b), "already ended") {
		t.Fatalf("DELETE of an ended query: %s", b)
	}
	recs = readAudit(t, f.srv, logPath)
	cancel := findAudit(t, recs, map[string]any{"kind": "cancel"})
	if cancel.str("query_id") != sub.QueryID || cancel.str("outcome") != "error" || cancel.str("endpoint") != "DELETE "+AsyncQueryPath+"/"+sub.QueryID {
		t.Errorf("async cancel record: %v", cancel)
	}
	for i, r := range recs {
		if _, err := time.Parse(time.RFC3339Nano, r.str("time")); err != nil || !strings.HasSuffix(r.str("time"), "Z") {
			t.Errorf("record %d: time %q is not RFC 3339 UTC", i, r.str("time"))
		}
		if r.str("remote") == "" || r.str("endpoint") == "" || r.str("outcome") == "" {
			t.Errorf("record %d lacks remote, endpoint or outcome: %v", i, r)
		}
		if _, ok := r.num("duration_ms"); !ok && (r.str("event") != "refused" || r["status"] == 429.0) {
			t.Errorf("record %d has no duration_ms: %v", i, r)
		}
		if _, ok := r["level"]; ok {
			t.Errorf("record %d has a level: %v", i, r)
		}
	}

	sel := findAudit(t, recs, map[string]any{"statement": "SELECT id FROM t WHERE id < 4"})
	for k, v := range map[string]any{"event": "statement", "user": admin, "endpoint": "POST /_plugins/_sql", "lang": "sql",
		"kind": "select", "role": "read", "rows": 4.0, "status": 200.0, "outcome": "ok"} {
		if sel[k] != v {
			t.Errorf("SELECT record: %s = %v, want %v (%v)", k, sel[k], v, sel)
		}
	}
	if sel.str("session") != "" {
		t.Errorf("a request without a session id has session %q", sel.str("session"))
	}

	var ddl auditRec
	for _, r := range recs {
		if strings.HasPrefix(r.str("statement"), "CREATE TABLE sec ") {
			ddl = r
		}
	}
	if s := ddl.str("statement"); !strings.Contains(s, "CREATE TABLE sec") || !strings.Contains(s, "***") || ddl.str("role") != "admin" || ddl.str("kind") != "ddl" || ddl.str("outcome") != "ok" {
		t.Errorf("CREATE TABLE record: %v", ddl)
	}
	paged := findAudit(t, recs, map[string]any{"statement": "SELECT name FROM t"})
	if paged["rows"] != 4.0 || paged["more"] != true {
		t.Errorf("paged SELECT record: %v", paged)
	}
	fetch := findAudit(t, recs, map[string]any{"event": "fetch"})
	if fetch["rows"] != 4.0 || fetch["more"] != true || fetch.str("kind") != "fetch" || fetch.str("outcome") != "ok" || fetch.str("statement") != "" {
		t.Errorf("fetch record: %v", fetch)
	}
	if raw, _ := os.ReadFile(logPath); bytes.Contains(raw, []byte(page.Cursor)) {
		t.Errorf("the audit log shows a cursor (it reads the rows)")
	}
	ddlErr := findAudit(t, recs, map[string]any{"kind": "ddl", "outcome": "error"})
	if s := ddlErr.str("statement"); !strings.Contains(s, "CREATE TABLE pw") || !strings.Contains(s, "***") || ddlErr.str("error_class") != "IllegalArgumentException" {
		t.Errorf("failed CREATE TABLE record: %v", ddlErr)
	}
	bad := findAudit(t, recs, map[string]any{"kind": "unparsed"})
	if s := bad.str("statement"); !strings.Contains(s, "CREATE TABLE bad") || !strings.Contains(s, "***") ||
		bad.str("outcome") != "error" || bad.str("error_class") != "SyntaxCheckException" || bad["status"] != 400.0 {
		t.Errorf("unparsed statement record: %v", bad)
	}

	pplRec := findAudit(t, recs, map[string]any{"endpoint": "POST /_plugins/_ppl", "outcome": "ok"})
	if pplRec.str("lang") != "ppl" || pplRec.str("kind") != "select" || pplRec["rows"] != 3.0 || !strings.Contains(pplRec.str("statement"), "head 3") {
		t.Errorf("PPL record: %v", pplRec)
	}

	api := findAudit(t, recs, map[string]any{"endpoint": "POST " + APIStatementPath, "kind": "select"})
	if api.str("session") != sr.SessionID || api["rows"] != 1.0 || api.str("outcome") != "ok" {
		t.Errorf("/api/v1/statement record (session %s): %v", sr.SessionID, api)
	}
	ins := findAudit(t, recs, map[string]any{"kind": "insert"})
	if ins.str("user") != "wendy" || ins["rows"] != 2.0 || ins.str("role") != "write" || ins.str("outcome") != "ok" {
		t.Errorf("INSERT record: %v", ins)
	}

	drop := findAudit(t, recs, map[string]any{"statement": "DROP TABLE t"})
	for k, v := range map[string]any{"event": "statement", "user": "bob", "kind": "ddl", "role": "admin", "status": 403.0,
		"outcome": "refused", "error_class": "SecurityException"} {
		if drop[k] != v {
			t.Errorf("refused DROP record: %s = %v, want %v (%v)", k, drop[k], v, drop)
		}
	}
	unauth := findAudit(t, recs, map[string]any{"status": 401.0})
	for k, v := range map[string]any{"event": "refused", "user": "bob", "auth": "basic", "outcome": "refused", "endpoint": "POST /_plugins/_sql"} {
		if unauth[k] != v {
			t.Errorf("401 record: %s = %v, want %v (%v)", k, unauth[k], v, unauth)
		}
	}
	route := findAudit(t, recs, map[string]any{"endpoint": "POST /api/v1/streams/x/start"})
	if route.str("event") != "refused" || route.str("user") != "bob" || route["status"] != 403.0 {
		t.Errorf("403 route record: %v", route)
	}
	busy := findAudit(t, recs, map[string]any{"status": 429.0})
	if busy.str("event") != "refused" || busy.str("user") != admin || busy.str("outcome") != "refused" ||
		busy.str("endpoint") != "POST /_plugins/_ppl" || busy.str("error_class") != "RejectedExecutionException" {
		t.Errorf("429 record: %v", busy)
	}

	asub := findAudit(t, recs, map[string]any{"event": "statement", "kind": "select", "query_id": sub.QueryID})
	if asub.str("session") != sub.SessionID || asub["status"] != 201.0 || asub.str("statement") != "SELECT count(*) FROM t" || asub.str("endpoint") != "POST "+AsyncQueryPath {
		t.Errorf("async submission record: %v", asub)
	}
	aend := findAudit(t, recs, map[string]any{"event": "async_end", "query_id": sub.QueryID})
	if aend.str("async_status") != asyncSuccess || aend.str("outcome") != "ok" || aend["rows"] != 1.0 ||
		aend.str("user") != admin || aend.str("session") != sub.SessionID || aend.str("statement") != "SELECT count(*) FROM t" {
		t.Errorf("async end record: %v", aend)
	}

	raw, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2", "bob-pw", "not-bobs-pw", adminPW, "wendy-pw"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("the audit log shows %q", secret)
		}
	}
	fi, err := os.Stat(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %o, want 600", fi.Mode().Perm())
	}
}

// TestAuditHostRefused: without authentication the Host check's 403 is
// logged (user empty), and so is a statement (user empty too).
func TestAuditHostRefused(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "audit.log")
	f := newFixtureWith(t, 1, func(o *Options) { o.Security.AuditLog = logPath })
	if st, _ := hostGet(t, f.http.URL, "evil.example", "", ""); st != http.StatusForbidden {
		t.Fatalf("GET / for evil.example: %d", st)
	}
	recs := readAudit(t, f.srv, logPath)
	host := findAudit(t, recs, map[string]any{"event": "refused"})
	if host["status"] != 403.0 || host.str("user") != "" || !strings.Contains(host.str("error"), "evil.example") || host.str("endpoint") != "GET /" {
		t.Errorf("Host refusal record: %v", host)
	}
	create := findAudit(t, recs, map[string]any{"kind": "ddl"})
	if create.str("user") != "" || create.str("outcome") != "ok" || create.str("role") != "admin" {
		t.Errorf("CREATE TABLE record without authentication: %v", create)
	}
}

// TestAuditLogMode: an existing audit log is appended to, and a mode
// wider than 0600 is narrowed; the server's Close flushes it.
func TestAuditLogMode(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(logPath, []byte(`{"event":"before"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(logPath, 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixtureWith(t, 1, func(o *Options) { o.Security.AuditLog = logPath })
	fi, err := os.Stat(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %o after open, want 600", fi.Mode().Perm())
	}
	f.close() // flushes
	raw, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 2 || lines[0] != `{"event":"before"}` || !strings.Contains(lines[1], `"kind":"ddl"`) {
		t.Errorf("audit log after one statement:\n%s", raw)
	}
}
