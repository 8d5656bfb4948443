package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRequestFilter: the request's filter (OpenSearch DSL) keeps only the
// source table's matching rows, on /_plugins/_sql and /_plugins/_ppl, and
// is refused with a 400 and the reason where it has no one table to
// apply to or uses DSL Sluice does not read.
func TestRequestFilter(t *testing.T) {
	f := newFixture(t, 6)
	rows := func(path, q string, filter string) string {
		t.Helper()
		var r jdbcReply
		out := f.post(path, map[string]any{"query": q, "filter": json.RawMessage(filter)}, 200)
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(r.Datarows)
		return string(got)
	}
	for _, c := range []struct{ filter, want string }{
		{`{"range": {"id": {"gte": 3}}}`, "[[3],[4],[5]]"},
		{`{"range": {"id": {"gt": 1, "lte": 3, "boost": 1.0}}}`, "[[2],[3]]"},
		{`{"term": {"name": "n2"}}`, "[[2]]"},
		{`{"term": {"name": {"value": "N2", "case_insensitive": true}}}`, "[[2]]"},
		{`{"terms": {"id": [1, 4, 9]}}`, "[[1],[4]]"},
		{`{"match_all": {}}`, "[[0],[1],[2],[3],[4],[5]]"},
		{`{"exists": {"field": "name"}}`, "[[0],[1],[2],[3],[4],[5]]"},
		{`{"prefix": {"name": "n5"}}`, "[[5]]"},
		{`{"bool": {"filter": [{"range": {"id": {"gte": 1}}}], "must_not": [{"term": {"id": 2}}], "must": {"range": {"id": {"lt": 4}}}}}`, "[[1],[3]]"},
		{`{"bool": {"should": [{"term": {"id": 0}}, {"term": {"id": 5}}]}}`, "[[0],[5]]"},
		// should clauses beside a filter only score: they keep nothing out.
		{`{"bool": {"filter": {"range": {"id": {"lt": 2}}}, "should": [{"term": {"id": 5}}]}}`, "[[0],[1]]"},
	} {
		if got := rows("/_plugins/_sql", "SELECT id FROM t ORDER BY id", c.filter); got != c.want {
			t.Errorf("SQL filter %s: %s, want %s", c.filter, got, c.want)
		}
		if got := rows("/_plugins/_ppl", "source=t | sort id | fields id", c.filter); got != c.want {
			t.Errorf("PPL filter %s: %s, want %s", c.filter, got, c.want)
		}
	}
	// The filter applies to the table's rows, before grouping, limits
	// and the query's own WHERE.
	if got := rows("/_plugins/_sql", "SELECT count(*) FROM (SELECT id FROM t WHERE id < 5 LIMIT 10) x", `{"range": {"id": {"gte": 3}}}`); got != "[[2]]" {
		t.Errorf("through a subquery: %s", got)
	}
	if got := rows("/_plugins/_ppl", "source=t | where id < 5 | stats count() as n", `{"range": {"id": {"gte": 3}}}`); got != "[[2]]" {
		t.Errorf("PPL stats: %s", got)
	}
	if got := rows("/_plugins/_ppl", "source=t", `{"term": {"id": 4}}`); !strings.HasPrefix(got, "[[4,") {
		t.Errorf("PPL source only: %s", got)
	}
	for _, c := range []struct{ path, q, filter, reason string }{
		{"/_plugins/_sql", "SELECT a.id FROM t a JOIN t b ON a.id = b.id", `{"term": {"id": 1}}`, "join"},
		{"/_plugins/_sql", "WITH x AS (SELECT * FROM t) SELECT * FROM x", `{"term": {"id": 1}}`, "WITH"},
		{"/_plugins/_sql", "SELECT id FROM t UNION ALL SELECT id FROM t", `{"term": {"id": 1}}`, "set operation"},
		{"/_plugins/_sql", "SELECT 1", `{"term": {"id": 1}}`, "no source table"},
		{"/_plugins/_sql", "SHOW TABLES", `{"term": {"id": 1}}`, "not a query"},
		{"/_plugins/_sql", "SELECT id FROM t", `{"match": {"name": "n1"}}`, "the match query is not supported"},
		{"/_plugins/_sql", "SELECT id FROM t", `{"term": {"id": 1}, "range": {}}`, "one key"},
		{"/_plugins/_sql", "SELECT id FROM t", `{"range": {"id": {"gte": 1, "format": "yyyy"}}}`, `option "format"`},
		{"/_plugins/_sql", "SELECT id FROM t", `[1]`, "query DSL object"},
		{"/_plugins/_ppl", "source=t | join on id = id t", `{"term": {"id": 1}}`, "join"},
	} {
		var r jdbcReply
		if err := json.Unmarshal(f.post(c.path, map[string]any{"query": c.q, "filter": json.RawMessage(c.filter)}, 400), &r); err != nil {
			t.Fatal(err)
		}
		if r.Error == nil || !strings.Contains(r.Error.Details, c.reason) || !strings.HasPrefix(r.Error.Details, "filter") {
			t.Errorf("%s with %s: %+v, want %q", c.q, c.filter, r.Error, c.reason)
		}
	}
}
