package crashtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/engine"
)

// TestDDLKilled: CREATE TABLE ... AS SELECT and CREATE MATERIALIZED VIEW
// killed with SIGKILL at each point leave, after the next start, no
// half-made table or view: one that had committed nothing is gone (and
// the statement runs again), a view that committed an epoch is kept and
// refreshes on. The catalog stays readable.
func TestDDLKilled(t *testing.T) {
	cases := []struct {
		name, stmt, point string
		kept              bool // the object is there after restart
	}{
		{"ctas registered", "CREATE TABLE c USING json LOCATION '%s/c/' AS SELECT id, status FROM src", "ddl-registered#1", false},
		{"ctas written", "CREATE TABLE c USING json LOCATION '%s/c/' AS SELECT id, status FROM src", "ddl-written#1", false},
		{"view planned", "CREATE MATERIALIZED VIEW mv AS SELECT window.start AS w, count(*) AS n FROM src GROUP BY TUMBLE(ts, '1 minute') WITH (auto_refresh = false)", "planned#1", false},
		{"view flushed", "CREATE MATERIALIZED VIEW mv AS SELECT window.start AS w, count(*) AS n FROM src GROUP BY TUMBLE(ts, '1 minute') WITH (auto_refresh = false)", "after-flush#1", false},
		{"skipping index planned", "CREATE SKIPPING INDEX ON src (status VALUE_SET)", "planned#1", false},
		{"skipping index committed", "CREATE SKIPPING INDEX ON src (status VALUE_SET) WITH (max_files_per_trigger = 1)", "after-commit#1", true},
		{"covering index planned", "CREATE INDEX ix ON src (id, status)", "planned#1", false},
		{"view committed", "CREATE MATERIALIZED VIEW mv AS SELECT window.start AS w, count(*) AS n FROM src GROUP BY TUMBLE(ts, '1 minute') WITH (auto_refresh = false, max_files_per_trigger = 1)", "after-commit#1", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			in := filepath.Join(root, "in")
			for i := 0; i < 3; i++ {
				writeInput(t, filepath.Join(in, fmt.Sprintf("f%d.json", i)), fmt.Sprintf(`{"id": %d, "status": 200, "ts": "2026-01-01T00:0%d:10Z"}`+"\n", i, i))
			}
			stmt := fmt.Sprintf(c.stmt, root)
			if !strings.Contains(c.stmt, "%s") {
				stmt = c.stmt
			}
			s := &scenario{dataDir: filepath.Join(root, "data"),
				setup: []string{"CREATE TABLE src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '" + in + "/'"},
				stmt:  stmt}
			r := s.runChild(t, 0, envPoint+"="+c.point)
			if !r.killed {
				t.Fatalf("the child was not killed at %s (code %d): %s", c.point, r.code, r.stderr)
			}
			eng, err := engine.Open(engine.Options{DataDir: s.dataDir})
			if err != nil {
				t.Fatalf("opening after the kill: %v", err)
			}
			defer eng.Close()
			ctx := context.Background()
			name := "c"
			switch {
			case strings.Contains(stmt, "VIEW"):
				name = "mv"
			case strings.Contains(stmt, "SKIPPING INDEX"):
				name = "flint_spark_catalog_default_src_skipping_index"
			case strings.Contains(stmt, "INDEX"):
				name = "flint_spark_catalog_default_src_ix_index"
			}
			rows, err := resultRows(t, eng, "SHOW TABLES")
			if err != nil {
				t.Fatal(err)
			}
			there := false
			for _, r := range rows {
				there = there || strings.HasPrefix(r, name+"|")
			}
			if there != c.kept {
				t.Fatalf("after a kill at %s the object is there: %v, want %v (%v)", c.point, there, c.kept, rows)
			}
			if c.kept {
				refresh := "REFRESH MATERIALIZED VIEW mv"
				if name != "mv" {
					refresh = "REFRESH SKIPPING INDEX ON src"
				}
				if _, err := eng.Execute(ctx, refresh); err != nil {
					t.Fatalf("refreshing the kept object: %v", err)
				}
				return
			}
			if _, err := eng.Execute(ctx, stmt); err != nil {
				t.Fatalf("running the statement again: %v", err)
			}
		})
	}
}

func writeInput(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
