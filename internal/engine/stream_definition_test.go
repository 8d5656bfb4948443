package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamDefinitionApartFromDisplay: a stored stream runs from its
// definition's query, not from the statement text SHOW displays (which is
// redacted): START STREAM works with that text replaced.
func TestStreamDefinitionApartFromDisplay(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in", "a.json"), `{"k": "https://u:p@h/x"}`+"\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	mustExecAll(t, eng,
		"CREATE TABLE src (k STRING) USING json LOCATION '"+filepath.Join(dir, "in")+"/'",
		"CREATE TABLE dst (k STRING) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
		"INSERT STREAM INTO dst SELECT k FROM src WHERE k <> 'https://a:b@c/' WITH (name = 'feed', trigger = 'available_now')",
	)
	o, err := eng.Catalog().Object("stream", "feed")
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(o.Options, &spec); err != nil {
		t.Fatal(err)
	}
	if q, _ := spec["query"].(string); !strings.Contains(q, "'https://a:b@c/'") {
		t.Fatalf("stored query %q, want the query as written", q)
	}
	o.SQL = "display text only"
	if err := eng.Catalog().PutObject(o, true); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "in", "b.json"), `{"k": "two"}`+"\n")
	if _, err := eng.Execute(context.Background(), "START STREAM feed"); err != nil {
		t.Fatalf("START STREAM from the definition: %v", err)
	}
	if got := strings.Join(queryRows(t, eng, "SELECT k FROM dst"), " "); got != "https://u:p@h/x two" {
		t.Errorf("dst = %q", got)
	}
}
