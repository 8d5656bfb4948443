package server

import (
	"encoding/json"
	"fmt"
	"testing"
)

// searchFixture is a server with three search tables (USING index):
// logs-01 and logs-02, whose columns differ, and metrics.
func searchFixture(t *testing.T) *fixture {
	f := newFixture(t, 1)
	f.sql(200, "CREATE TABLE `logs-01` (msg STRING, n INT) USING index")
	f.sql(200, "INSERT INTO `logs-01` VALUES ('a', 1), ('b', 2)")
	f.sql(200, "CREATE TABLE `logs-02` (msg STRING, host STRING) USING index")
	f.sql(200, "INSERT INTO `logs-02` VALUES ('c', 'h1')")
	f.sql(200, "CREATE TABLE metrics (msg STRING) USING index")
	f.sql(200, "INSERT INTO metrics VALUES ('m')")
	return f
}

// rowsOf is a reply's datarows as JSON, for comparing.
func rowsOf(r jdbcReply) string {
	b, _ := json.Marshal(r.Datarows)
	return string(b)
}

// TestSearchMetadataColumns: a search table offers the plugin's _index
// and _id metadata fields, hidden from SELECT * (and from PPL's default
// field list) until named, on both endpoints; _index filters.
func TestSearchMetadataColumns(t *testing.T) {
	f := searchFixture(t)
	r := f.sql(200, "SELECT msg, _index, _id FROM `logs-01` WHERE _index = 'logs-01' ORDER BY msg")
	if len(r.Datarows) != 2 || r.Datarows[0][1] != "logs-01" || fmt.Sprint(r.Datarows[0][2]) == "" || r.Datarows[0][2] == r.Datarows[1][2] ||
		r.Schema[1].Name != "_index" || r.Schema[1].Type != "keyword" || r.Schema[2].Name != "_id" {
		t.Fatalf("SQL _index, _id: %+v", r)
	}
	if r := f.sql(200, "SELECT * FROM metrics"); len(r.Schema) != 1 {
		t.Fatalf("SELECT * shows hidden columns: %+v", r.Schema)
	}
	p := f.pplReply(200, "source=metrics | fields msg, _index")
	if rowsOf(p) != `[["m","metrics"]]` || p.Schema[1].Type != "string" {
		t.Fatalf("PPL _index: %+v", p)
	}
	if p := f.pplReply(200, "source=metrics"); len(p.Schema) != 1 {
		t.Fatalf("PPL's default fields show hidden columns: %+v", p.Schema)
	}
	if r := f.sql(200, "SELECT count(*) FROM metrics WHERE _index = 'other'"); rowsOf(r) != "[[0]]" {
		t.Fatalf("_index filter: %s", rowsOf(r))
	}
}

// TestIndexPatterns: FROM logs-* and source=logs-* read the union of
// the search tables the pattern matches, columns merged by name (NULL
// where a table has none) and _index telling them apart; comma lists
// (backquoted in SQL, bare or backquoted in PPL) name several; a pattern
// matching nothing is the plugin's 404 no such index [pattern].
func TestIndexPatterns(t *testing.T) {
	f := searchFixture(t)
	for _, c := range []struct{ q, want string }{
		{"SELECT _index, msg, n, host FROM logs-* ORDER BY msg", `[["logs-01","a",1,null],["logs-01","b",2,null],["logs-02","c",null,"h1"]]`},
		{"SELECT count(*) AS cnt FROM `logs-01,metrics`", `[[3]]`},
		{"SELECT count(*) AS cnt FROM `*s-0*,metrics`", `[[4]]`},
		{"SELECT msg FROM logs-* WHERE host = 'h1'", `[["c"]]`},
	} {
		if r := f.sql(200, c.q); rowsOf(r) != c.want {
			t.Errorf("%s: %s, want %s", c.q, rowsOf(r), c.want)
		}
	}
	r := f.sql(200, "SELECT * FROM logs-*")
	if len(r.Schema) != 3 || r.Schema[0].Name != "msg" || r.Schema[1].Name != "n" || r.Schema[2].Name != "host" {
		t.Errorf("SELECT * over a pattern: %+v", r.Schema)
	}
	for _, c := range []struct{ q, want string }{
		{"source=logs-* | stats count() as c", `[[3]]`},
		{"source=logs-01, metrics | stats count() as c", `[[3]]`},
		{"source=`logs-01,metrics` | stats count() as c", `[[3]]`},
		{"source=logs-* | fields _index, msg | sort msg", `[["logs-01","a"],["logs-01","b"],["logs-02","c"]]`},
	} {
		if r := f.pplReply(200, c.q); rowsOf(r) != c.want {
			t.Errorf("%s: %s, want %s", c.q, rowsOf(r), c.want)
		}
	}
	for path, q := range map[string]string{"/_plugins/_sql": "SELECT * FROM nothing-*", "/_plugins/_ppl": "source=nothing-*"} {
		var r pplErrorReply
		if err := json.Unmarshal(f.post(path, map[string]any{"query": q}, 404), &r); err != nil {
			t.Fatal(err)
		}
		if r.Status != 404 || r.Error.Type != "IndexNotFoundException" || r.Error.Reason != "no such index [nothing-*]" || r.Error.Details != r.Error.Reason {
			t.Errorf("%s %s: %+v", path, q, r)
		}
	}
}
