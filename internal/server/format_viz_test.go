package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestVizFormat decodes ?format=viz as protocol.rst and the plugin's
// VisualizationResponseFormatter show it: column-wise data in column
// order, the fields with their legacy type names, size and status.
func TestVizFormat(t *testing.T) {
	f := newFixture(t, 3)
	out := f.post("/_plugins/_ppl?format=viz", map[string]any{"query": "source=t | sort id | fields name, id"}, 200)
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var r struct {
		Data     map[string][]any `json:"data"`
		Metadata struct {
			Fields []column `json:"fields"`
		} `json:"metadata"`
		Fields []column `json:"fields"`
		Size   int      `json:"size"`
		Status int      `json:"status"`
	}
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if got, _ := json.Marshal(r.Data); string(got) != `{"id":[0,1,2],"name":["n0","n1","n2"]}` {
		t.Errorf("data %s", got)
	}
	if !strings.HasPrefix(string(out), `{"data":{"name":["n0","n1","n2"],"id":[0,1,2]}`) {
		t.Errorf("columns out of order: %s", out)
	}
	want := `[{"name":"name","type":"keyword"},{"name":"id","type":"long"}]`
	for _, fs := range [][]column{r.Fields, r.Metadata.Fields} {
		if got, _ := json.Marshal(fs); string(got) != want {
			t.Errorf("fields %s, want %s", got, want)
		}
	}
	if r.Size != 3 || r.Status != 200 {
		t.Errorf("size %d status %d", r.Size, r.Status)
	}
	empty := string(f.post("/_plugins/_sql?format=viz&pretty", map[string]any{"query": "SELECT id FROM t WHERE id > 9"}, 200))
	if !strings.Contains(empty, `"id": []`) || !strings.Contains(empty, `"size": 0`) {
		t.Errorf("empty %s", empty)
	}
}
