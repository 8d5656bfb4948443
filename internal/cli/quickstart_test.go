package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuickstart runs examples/quickstart.sql, the README's first
// command, on the real engine, with its paths pointed at the repository
// and a temp dir instead of the working directory.
func TestQuickstart(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "examples", "quickstart.sql"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	script := strings.ReplaceAll(string(text), "'testdata/", "'"+filepath.ToSlash(root)+"/testdata/")
	script = strings.ReplaceAll(script, "'sluice-data/", "'"+filepath.ToSlash(tmp)+"/")
	path := filepath.Join(tmp, "quickstart.sql")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err = RunSQL(context.Background(), Options{
		DataDir: filepath.Join(tmp, "data"), Format: "table", File: path,
		Stdout: &out, Stderr: &errs,
	})
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errs.String())
	}
	for _, want := range []string{
		"table http_logs created",
		"|    200 |      217 |",               // status counts
		"| 2026-11-30 |      130 |",           // per-day counts over the partitions
		"29 rows inserted into status_by_day", // JSON to Parquet
		"| 2026-11-28 |     25 |",             // read back from Parquet
		"| # Partition Information |",         // the partition column
		"| date                    | date ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
