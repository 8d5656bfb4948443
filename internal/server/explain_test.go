package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestExplainShape decodes /_plugins/_sql/_explain and /_plugins/_ppl/_explain
// as the plugin's docs show them: the v2 operator tree (root, name,
// description, children) and the Calcite texts (calcite.logical,
// calcite.physical), with Sluice's plan lines inside.
func TestExplainShape(t *testing.T) {
	f := newFixture(t, 3)
	type node struct {
		Name        string            `json:"name"`
		Description map[string]string `json:"description"`
		Children    []*node           `json:"children"`
	}
	for path, q := range map[string]string{
		"/_plugins/_sql/_explain": "SELECT a.id FROM t a JOIN t b ON a.id = b.id WHERE a.id > 1",
		"/_plugins/_ppl/_explain": "source=t as a | where id > 1 | join left = a right = b on a.id = b.id [ source = t ] | fields a.id",
	} {
		out := f.post(path, map[string]any{"query": q}, 200)
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.DisallowUnknownFields()
		var r struct {
			Root    *node `json:"root"`
			Calcite struct {
				Logical  string `json:"logical"`
				Physical string `json:"physical"`
			} `json:"calcite"`
			Plan []string `json:"plan"`
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s: %s: %v", path, out, err)
		}
		if r.Root == nil || r.Root.Name != "Project" || r.Root.Description["plan"] == "" {
			t.Fatalf("%s: root %s", path, out)
		}
		// The tree has the plan's shape: a HashJoin whose two inputs
		// each end in a Scan.
		var find func(n *node, name string) *node
		find = func(n *node, name string) *node {
			if n.Name == name {
				return n
			}
			for _, c := range n.Children {
				if m := find(c, name); m != nil {
					return m
				}
			}
			return nil
		}
		join := find(r.Root, "HashJoin")
		if join == nil || len(join.Children) != 2 || find(join.Children[0], "Scan") == nil ||
			!strings.Contains(find(join.Children[1], "Scan").Description["plan"], "Scan json") {
			t.Errorf("%s: tree %s", path, out)
		}
		if !strings.Contains(r.Calcite.Logical, "HashJoin") || !strings.HasSuffix(r.Calcite.Physical, "\n") || !strings.Contains(r.Calcite.Physical, "Scan json") {
			t.Errorf("%s: calcite %+v", path, r.Calcite)
		}
		if strings.Join(r.Plan, "\n") == "" || !strings.Contains(strings.Join(r.Plan, "\n"), "== Physical Plan ==") {
			t.Errorf("%s: plan %v", path, r.Plan)
		}
	}
}

// TestExplainFilter: an explain shows the plan the query would run, so
// the request's filter and parameters are in it.
func TestExplainFilter(t *testing.T) {
	f := newFixture(t, 1)
	for path, q := range map[string]string{
		"/_plugins/_sql/_explain": "SELECT name FROM t WHERE name <> ?",
		"/_plugins/_ppl/_explain": "source=t | fields name",
	} {
		body := map[string]any{"query": q, "filter": json.RawMessage(`{"range": {"id": {"gte": 30}}}`)}
		if strings.Contains(q, "?") {
			body["parameters"] = []map[string]any{{"type": "string", "value": "zz"}}
		}
		out := string(f.post(path, body, 200))
		if !strings.Contains(out, "id \\u003e= 30") {
			t.Errorf("%s: no filter in %s", path, out)
		}
		if strings.Contains(q, "?") && !strings.Contains(out, "zz") {
			t.Errorf("%s: no parameter in %s", path, out)
		}
	}
	// EXPLAIN written out still works.
	f.post("/_plugins/_sql/_explain", map[string]any{"query": "EXPLAIN SELECT id FROM t"}, 200)
}
