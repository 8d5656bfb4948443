package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"sluice/internal/engine"
)

// statement runs query through /api/v1/statement in session sid ("" for
// a new one) and returns the answer and its rows as text.
func (f *fixture) statement(sid, query string) (StatementResponse, []string) {
	f.t.Helper()
	body := map[string]any{"query": query}
	if sid != "" {
		body["sessionId"] = sid
	}
	var r StatementResponse
	if err := json.Unmarshal(f.post(APIStatementPath, body, http.StatusOK), &r); err != nil {
		f.t.Fatal(err)
	}
	if r.SessionID == "" {
		f.t.Fatalf("%s: the answer names no session", query)
	}
	var rows []string
	if r.Arrow != "" {
		raw, err := base64.StdEncoding.DecodeString(r.Arrow)
		if err != nil {
			f.t.Fatal(err)
		}
		rd, err := ipc.NewReader(bytes.NewReader(raw))
		if err != nil {
			f.t.Fatal(err)
		}
		defer rd.Release()
		for rd.Next() {
			b := rd.RecordBatch()
			for i := 0; i < int(b.NumRows()); i++ {
				var cells []string
				for c := 0; c < int(b.NumCols()); c++ {
					cells = append(cells, b.Column(c).ValueStr(i))
				}
				rows = append(rows, strings.Join(cells, "|"))
			}
		}
	}
	return r, rows
}

// TestSessionsIsolatedREST: two REST clients' USE and SET, credentials
// among them, never reach each other, nor /_plugins/_sql requests
// without a session; a client keeps its own across requests by sending
// its session id back.
func TestSessionsIsolatedREST(t *testing.T) {
	f := newFixture(t, 2)
	f.sql(200, "CREATE DATABASE web")

	a, _ := f.statement("", "USE web")
	sa := a.SessionID
	f.statement(sa, "SET s3.secret_key = 'alice-secret-key'")
	b, _ := f.statement("", "SELECT 1")
	sb := b.SessionID
	if sa == sb {
		t.Fatalf("two clients got one session %s", sa)
	}

	if _, rows := f.statement(sa, "SELECT current_database()"); len(rows) != 1 || rows[0] != "web" {
		t.Errorf("a's database = %v, want web", rows)
	}
	if _, rows := f.statement(sb, "SELECT current_database()"); len(rows) != 1 || rows[0] != "default" {
		t.Errorf("b's database = %v, want default (a's USE leaked)", rows)
	}
	if _, rows := f.statement(sb, "SHOW SETTINGS"); len(rows) != 0 {
		t.Errorf("b sees settings %v (a's SET leaked)", rows)
	}
	if _, rows := f.statement(sa, "SHOW SETTINGS"); len(rows) != 1 || strings.Contains(rows[0], "alice-secret-key") {
		t.Errorf("a's settings = %v, want its one, redacted", rows)
	}
	// The plugin's endpoint without a session starts from the defaults.
	if r := f.sql(200, "SELECT current_database()"); len(r.Datarows) != 1 || r.Datarows[0][0] != "default" {
		t.Errorf("/_plugins/_sql database = %v, want default", r.Datarows)
	}
	// An unknown id is a new session, under a new id.
	c, rows := f.statement("nosuchsession", "SELECT current_database()")
	if c.SessionID == "nosuchsession" || len(rows) != 1 || rows[0] != "default" {
		t.Errorf("unknown id: session %s database %v, want a new id and default", c.SessionID, rows)
	}
	// A table a makes in its database is its unqualified name only.
	f.statement(sa, "CREATE TABLE u (x INT) USING json LOCATION '"+t.TempDir()+"'")
	if _, rows := f.statement(sa, "SHOW TABLES"); len(rows) != 1 {
		t.Errorf("a's SHOW TABLES = %v, want u", rows)
	}
	if _, rows := f.statement(sb, "SHOW TABLES"); len(rows) != 1 || !strings.HasPrefix(rows[0], "t|") {
		t.Errorf("b's SHOW TABLES = %v, want only t", rows)
	}

	// The async API keeps a session across submissions too.
	var r1 struct{ QueryID, SessionID string }
	if err := json.Unmarshal(f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "sql", "query": "USE web"}, http.StatusCreated), &r1); err != nil {
		t.Fatal(err)
	}
	f.waitAsync(r1.QueryID, asyncSuccess)
	var r2 struct{ QueryID, SessionID string }
	if err := json.Unmarshal(f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "sql", "query": "SELECT current_database()", "sessionId": r1.SessionID}, http.StatusCreated), &r2); err != nil {
		t.Fatal(err)
	}
	if r2.SessionID != r1.SessionID {
		t.Errorf("async session %s, want %s kept", r2.SessionID, r1.SessionID)
	}
	if got := f.waitAsync(r2.QueryID, asyncSuccess); len(got.Datarows) != 1 || got.Datarows[0][0] != "web" {
		t.Errorf("async database in its session = %v, want web", got.Datarows)
	}
}

// TestSessionExpiry: a session idle for longer than SessionIdle is gone;
// its id then starts a new one.
func TestSessionExpiry(t *testing.T) {
	eng, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_000_000, 0)
	alice := principal{name: "alice", role: RoleRead}
	st := newSessionStore(func(p principal) *engine.Session { return eng.NewSession(p.name) }, time.Minute)
	st.now = func() time.Time { return now }
	id, s1 := st.get("", alice)
	if id2, s2 := st.get(id, alice); id2 != id || s2 != s1 {
		t.Fatal("a live session was not kept")
	}
	if id3, _ := st.get(id, principal{name: "bob", role: RoleRead}); id3 == id {
		t.Fatal("bob got alice's session")
	}
	if id5, _ := st.get(id, principal{name: "alice", role: RoleAdmin}); id5 == id {
		t.Fatal("alice, now admin, kept the session she started as a read user")
	}
	now = now.Add(2 * time.Minute)
	if id4, s4 := st.get(id, alice); id4 == id || s4 == s1 {
		t.Fatal("an expired session was kept")
	}
	if n := st.len(); n != 1 {
		t.Errorf("%d sessions open after the sweep, want 1", n)
	}
}
