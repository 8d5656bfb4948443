package server

import (
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"
)

// TestCSVEmbeddedNewline: a value holding a line break is one quoted
// field (RFC 4180), so it cannot add a row to an export, and the formula
// guard applies at every line start inside it, not only the first.
func TestCSVEmbeddedNewline(t *testing.T) {
	f := newFixture(t, 1)
	dir := filepath.Join(f.dir, "nl")
	writeFile(t, filepath.Join(dir, "part0.json"),
		`{"id": 1, "v": "ok\n=HYPERLINK(\"http://x\")"}`+"\n"+
			`{"id": 2, "v": "cr\r\n@SUM(A1)"}`+"\n"+
			`{"id": 3, "v": "plain"}`+"\n")
	f.sql(200, "CREATE TABLE nl (id BIGINT, v STRING) USING json LOCATION '"+dir+"/'")
	q := map[string]any{"query": "SELECT id, v FROM nl ORDER BY id"}

	out := string(f.post("/_plugins/_sql?format=csv", q, 200))
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("csv export does not parse: %v\n%s", err, out)
	}
	// encoding/csv reads a quoted CRLF as LF; the export keeps the CR.
	if !strings.Contains(out, "\"cr\r\n'@SUM(A1)\"") {
		t.Errorf("csv export lost the CR or the guard of a CRLF value:\n%q", out)
	}
	want := [][]string{{"id", "v"}, {"1", "ok\n'=HYPERLINK(\"http://x\")"}, {"2", "cr\n'@SUM(A1)"}, {"3", "plain"}}
	if len(recs) != len(want) {
		t.Fatalf("csv export has %d records, want %d (a newline in a value added rows):\n%s", len(recs), len(want), out)
	}
	for i := range want {
		if strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("record %d: %q, want %q", i, recs[i], want[i])
		}
	}
	if lines := strings.Split(out, "\n"); len(lines) > 0 {
		for _, l := range lines {
			if l != "" && strings.ContainsAny(l[:1], "=+-@") {
				t.Errorf("a line of the export starts with a formula character: %q", l)
			}
		}
	}

	raw := string(f.post("/_plugins/_sql?format=raw", q, 200))
	r := csv.NewReader(strings.NewReader(raw))
	r.Comma = '|'
	if recs, err := r.ReadAll(); err != nil || len(recs) != len(want) {
		t.Fatalf("raw export: %d records (%v), want %d:\n%s", len(recs), err, len(want), raw)
	}
}
