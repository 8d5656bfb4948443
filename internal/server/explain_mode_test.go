package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestExplainModes decodes the explain endpoints' mode and format answers
// as the plugin's docs show them: {"calcite": {"logical", "physical"}}
// for standard and extended, {"calcite": {"logical"}} with bare operator
// names for simple, the same texts as YAML literal blocks for
// format=yaml; cost and unknown modes or formats are 400s.
func TestExplainModes(t *testing.T) {
	f := newFixture(t, 3)
	explain := func(path, params, q string, status int) (string, http.Header) {
		t.Helper()
		raw, _ := json.Marshal(map[string]any{"query": q})
		resp, err := http.Post(f.http.URL+path+params, "application/json", bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != status {
			t.Fatalf("%s%s: status %d, want %d: %s", path, params, resp.StatusCode, status, out)
		}
		return string(out), resp.Header
	}
	type calcite struct {
		Calcite map[string]string `json:"calcite"`
	}
	decode := func(out string) map[string]string {
		t.Helper()
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		var c calcite
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		return c.Calcite
	}
	for _, c := range []struct{ path, mode, q string }{
		{"/_plugins/_sql/_explain", "format", "SELECT name FROM t WHERE id > 1"},
		{"/_plugins/_sql/_explain", "mode", "SELECT name FROM t WHERE id > 1"},
		{"/_plugins/_ppl/_explain", "mode", "source=t | where id > 1 | fields name"},
		{"/_plugins/_ppl/_explain", "format", "source=t | where id > 1 | fields name"},
	} {
		out, _ := explain(c.path, "?"+c.mode+"=standard", c.q, 200)
		std := decode(out)
		if len(std) != 2 || !strings.HasPrefix(std["logical"], "Project [name]\n  Filter") || !strings.Contains(std["physical"], "Scan json") {
			t.Fatalf("%s %s=standard: %s", c.path, c.mode, out)
		}
		out, _ = explain(c.path, "?"+c.mode+"=extended", c.q, 200)
		if ext := decode(out); ext["logical"] != std["logical"] || ext["physical"] != std["physical"] || len(ext) != 2 {
			t.Fatalf("%s %s=extended: %s", c.path, c.mode, out)
		}
		out, _ = explain(c.path, "?"+c.mode+"=simple", c.q, 200)
		if simple := decode(out); len(simple) != 1 || simple["logical"] != "Project\n  Filter\n    Scan\n" {
			t.Fatalf("%s %s=simple: %s", c.path, c.mode, out)
		}
		out, _ = explain(c.path, "?"+c.mode+"=cost", c.q, 400)
		if !strings.Contains(out, "explain mode cost") {
			t.Fatalf("%s %s=cost: %s", c.path, c.mode, out)
		}
		// YAML: calcite, then each text sorted by key as a literal block.
		out, h := explain(c.path, "?format=yaml", c.q, 200)
		if !strings.HasPrefix(h.Get("Content-Type"), "application/yaml") {
			t.Fatalf("format=yaml: Content-Type %s", h.Get("Content-Type"))
		}
		if got := readExplainYAML(t, out); got["logical"] != std["logical"] || got["physical"] != std["physical"] || len(got) != 2 {
			t.Fatalf("format=yaml:\n%s\nread as %q", out, got)
		}
		out, _ = explain(c.path, "?format=yaml&mode=simple", c.q, 200)
		if out != "calcite:\n  logical: |\n    Project\n      Filter\n        Scan\n" {
			t.Fatalf("format=yaml&mode=simple:\n%s", out)
		}
	}
	for _, params := range []string{"?mode=bogus", "?format=xml", "?format=json_tree"} {
		if out, _ := explain("/_plugins/_ppl/_explain", params, "source=t", 400); !strings.Contains(out, "IllegalArgumentException") {
			t.Fatalf("%s: %s", params, out)
		}
	}
}

// readExplainYAML reads the YAML the explain endpoints write: a calcite
// mapping of keys to literal blocks indented four spaces.
func readExplainYAML(t *testing.T, doc string) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
	if lines[0] != "calcite:" {
		t.Fatalf("YAML does not start with calcite:\n%s", doc)
	}
	out := map[string]string{}
	key := ""
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "    "):
			out[key] += strings.TrimPrefix(l, "    ") + "\n"
		case strings.HasPrefix(l, "  ") && strings.HasSuffix(l, ": |"):
			key = strings.TrimSuffix(strings.TrimPrefix(l, "  "), ": |")
		default:
			t.Fatalf("YAML line %q", l)
		}
	}
	return out
}
