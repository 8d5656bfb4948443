package catalog_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// TestSQLFromPreviousBinary: a data dir written by 549637f, the last
// binary that wrote ” for a quote in stored SQL (catalog format 2 and
// older; testdata/compat/datadirs/549637f, made.sql), keeps its meaning:
// the view answers as that binary did (made.sql's last queries),
// and the stream and the materialized view go on from their checkpoints
// with their old predicates. A misread 'it”s' is its, '\\d+' d+.
func TestSQLFromPreviousBinary(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "..", "testdata", "compat", "datadirs", "549637f", "root"))); err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(root, "data", "catalog.json")
	b, err := os.ReadFile(cat)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `'it''s'`) {
		t.Fatal("the fixture's catalog should hold the old escaping")
	}
	if err := os.WriteFile(cat, []byte(strings.ReplaceAll(string(b), "/tmp/qfix", root)), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "in", "a.json"), old, old); err != nil {
		t.Fatal(err)
	}
	newRows := `{"s": "it's", "n": 6, "ts": "2026-01-01T00:05:00Z"}` + "\n" +
		`{"s": "a\\d7", "n": 7, "ts": "2026-01-01T00:06:00Z"}` + "\n" +
		`{"s": "5%", "n": 8, "ts": "2026-01-01T00:07:00Z"}` + "\n" +
		`{"s": "its", "n": 9, "ts": "2026-01-01T00:08:00Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(root, "in", "b.json"), []byte(newRows), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Open(engine.Options{DataDir: filepath.Join(root, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	for _, st := range []string{"START STREAM feed", "REFRESH MATERIALIZED VIEW quoted_mv"} {
		if _, err := eng.Execute(ctx, st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
	for _, c := range []struct{ q, want string }{
		// Rows 1-5 as 549637f printed them (made.sql).
		{"SELECT * FROM quoted WHERE n <= 5", `1 true false  it'sx'y\; 2 false true 100 100%x'y\; 3 false false 1000 1000x'y\; 4 false false  itsx'y\; 5 false false 7 a\d7x'y\`},
		{"SELECT n FROM feed_out", "3; 4; 5; 7; 9"},
		{"SELECT s, c FROM quoted_mv", `1000 1; a\d7 2; it's 2`},
	} {
		if got := strings.Join(rows(t, eng, c.q), "; "); got != c.want {
			t.Errorf("%s = %s, want %s", c.q, got, c.want)
		}
	}
	// The next write stores the SQL the new way, once: reopened, it
	// means the same.
	if _, err := eng.Execute(ctx, "CREATE TABLE more (x INT) USING json LOCATION '"+filepath.Join(root, "more")+"'"); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(cat)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"version": 3`) || strings.Contains(s, `'it''s'`) || !strings.Contains(s, `'it\\'s'`) {
		t.Errorf("catalog.json after a write = %s, want version 3 and 'it\\'s'", s)
	}
	eng.Close()
	eng, err = engine.Open(engine.Options{DataDir: filepath.Join(root, "data")})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows(t, eng, "SELECT n FROM quoted WHERE is_q OR pct OR digits = '7'"), "; "); got != "1; 2; 5; 6; 7" {
		t.Errorf("view after the rewrite: %s, want 1; 2; 5; 6; 7", got)
	}
}

func rows(t *testing.T, eng *engine.Engine, q string) []string {
	t.Helper()
	res, err := eng.Execute(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for _, b := range res[len(res)-1].Batches {
		for i := 0; i < int(b.NumRows()); i++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				vals = append(vals, types.FormatValue(b.Column(c), i))
			}
			out = append(out, strings.Join(vals, " "))
		}
	}
	sort.Strings(out)
	return out
}
