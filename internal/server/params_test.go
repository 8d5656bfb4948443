package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSQLParameters: the request's parameters, as protocol.rst shows
// them ([{"type": "integer", "value": 30}, ...]), bind the ? placeholders
// in order; ? inside strings, names and comments is left alone.
func TestSQLParameters(t *testing.T) {
	f := newFixture(t, 6)
	post := func(status int, q string, params string) jdbcReply {
		t.Helper()
		var r jdbcReply
		if err := json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": q, "parameters": json.RawMessage(params)}, status), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := post(200, "SELECT id, '?' AS q /* ? */ FROM t WHERE id >= ? AND name <> ? AND (id < ?) = ? -- ?\nORDER BY id",
		`[{"type": "integer", "value": 2}, {"type": "string", "value": "n3'x"}, {"type": "double", "value": 4.5}, {"type": "boolean", "value": true}]`)
	if got, _ := json.Marshal(r.Datarows); string(got) != `[[2,"?"],[3,"?"],[4,"?"]]` {
		t.Errorf("rows %s", got)
	}
	r = post(200, "SELECT ? AS s, ? AS n, ? AS k, ? AS l", `[{"type": "keyword", "value": "a\\b"}, {"type": "null"}, {"type": "long", "value": "7"}, {"type": "date", "value": "2026-01-02"}]`)
	if got, _ := json.Marshal(r.Datarows); string(got) != `[["a\\b",null,7,"2026-01-02"]]` {
		t.Errorf("rows %s", got)
	}
	for _, c := range []struct{ q, params, reason string }{
		{"SELECT ? + ?", `[{"type": "integer", "value": 1}]`, "more ? placeholders"},
		{"SELECT ?", `[{"type": "integer", "value": 1}, {"type": "integer", "value": 2}]`, "1 ? placeholders for 2 parameters"},
		{"SELECT ?", `[{"type": "integer", "value": "x"}]`, "is not an integer"},
		{"SELECT ?", `[{"type": "geo_point", "value": 1}]`, "unsupported parameter type geo_point"},
	} {
		r := post(400, c.q, c.params)
		if r.Error == nil || !strings.Contains(r.Error.Details, c.reason) || r.Error.Type != "IllegalArgumentException" {
			t.Errorf("%s %s: %+v, want %q", c.q, c.params, r.Error, c.reason)
		}
	}
	f.post("/_plugins/_ppl", map[string]any{"query": "source=t", "parameters": []any{map[string]any{"type": "integer", "value": 1}}}, 400)
}
