package server

import (
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
