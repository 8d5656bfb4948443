package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/types"
)

func rowsOf(t *testing.T, r *Result) []string {
	t.Helper()
	var out []string
	for _, b := range r.Batches {
		for i := 0; i < int(b.NumRows()); i++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				vals = append(vals, types.FormatValue(b.Column(c), i))
			}
			out = append(out, strings.Join(vals, " "))
		}
	}
	return out
}

func TestSmoke(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "logs.json")
	os.WriteFile(data, []byte(`{"status": 200, "path": "/a", "size": 10}
{"status": 500, "path": "/b", "size": 20}
{"status": 404, "path": "/a", "size": null}
`), 0o644)
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE logs (status INT, path STRING, size BIGINT) USING json LOCATION '" + data + "'",
		"SELECT status, path FROM logs WHERE status >= 400",
		"SELECT 1 + 1, 'x'",
		"SELECT path, _file IS NOT NULL, _row FROM logs LIMIT 2",
		"EXPLAIN SELECT status FROM logs WHERE size > 5",
	} {
		res, err := eng.Execute(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, r := range res {
			t.Logf("%s -> %s %v", q, r.Message, rowsOf(t, r))
		}
	}
}
