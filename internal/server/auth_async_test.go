package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestAsyncRoles: a read user may submit a SELECT as an async query and
// read its status, never DDL or a stream; the statement is authorized
// like a synchronous one.
func TestAsyncRoles(t *testing.T) {
	f := newAuthFixture(t, nil)
	f.do(401, AsyncQueryPath, "", "", "SELECT 1")
	body := f.do(201, AsyncQueryPath, "bob", "bob-pw", "SELECT count(*) FROM t")
	if !strings.Contains(string(body), "queryId") {
		t.Fatalf("async submit as bob: %s", body)
	}
	for _, q := range []string{
		"DROP TABLE t",
		"INSERT INTO t SELECT * FROM t",
		"INSERT STREAM INTO t SELECT * FROM t WITH (name = 'feed')",
	} {
		if b := f.do(403, AsyncQueryPath, "bob", "bob-pw", q); !strings.Contains(string(b), "needs role") {
			t.Errorf("%s as bob: %s", q, b)
		}
	}
	f.do(201, AsyncQueryPath, "alice", "alice-pw", "SHOW TABLES")
	// The table is still there: nothing bob sent ran.
	if out := f.do(200, "/_plugins/_sql?format=csv", "alice", "alice-pw", "SELECT count(*) AS n FROM t"); strings.TrimSpace(string(out)) != "n\n10" {
		t.Errorf("count after bob's tries: %q", out)
	}
}

// TestAsyncOwner: an async query's status and result are its submitter's:
// another non-admin caller gets 400 for its id, on GET and on DELETE, as
// for an id that does not exist; an admin reaches every query.
func TestAsyncOwner(t *testing.T) {
	f := newAuthFixture(t, nil)
	var sub struct{ QueryID string }
	if err := json.Unmarshal(f.do(201, AsyncQueryPath, "bob", "bob-pw", "SELECT count(*) FROM t"), &sub); err != nil || sub.QueryID == "" {
		t.Fatalf("submit as bob: %v %q", err, sub.QueryID)
	}
	path := AsyncQueryPath + "/" + sub.QueryID
	other := "Bearer " + f.readTok
	if b := f.call(http.MethodGet, path, other, "", 400); strings.Contains(string(b), "datarows") {
		t.Errorf("another read user got the result: %s", b)
	}
	f.call(http.MethodDelete, path, other, "", 400)
	f.call(http.MethodGet, path, "bob", "bob-pw", 200)
	f.call(http.MethodGet, path, "alice", "alice-pw", 200)
	f.call(http.MethodGet, path, "Bearer "+f.adminTok, "", 200)
}

// call sends a request without a body as user (see do) and checks the
// status.
func (f *authFixture) call(method, path, user, pw string, status int) []byte {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.url+path, nil)
	switch {
	case strings.HasPrefix(user, "Bearer "):
		req.Header.Set("Authorization", user)
	case user != "":
		req.SetBasicAuth(user, pw)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		who := user
		if strings.HasPrefix(user, "Bearer ") {
			who = "a bearer token" // never a secret in the test log
		}
		f.t.Fatalf("%s %s as %s: status %d, want %d: %s", method, path, who, resp.StatusCode, status, out)
	}
	return out
}
