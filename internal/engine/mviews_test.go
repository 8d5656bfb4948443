package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaterializedViewLifecycle: a windowed view over JSON files in the
// embedded index, refreshed incrementally, queryable with SELECT, paused,
// described and dropped.
func TestMaterializedViewLifecycle(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"ip\": \"a\", \"status\": 500, \"ts\": \"2026-11-30T10:01:00Z\"}\n{\"ip\": \"b\", \"status\": 200, \"ts\": \"2026-11-30T10:02:00Z\"}\n{\"ip\": \"a\", \"status\": 503, \"ts\": \"2026-11-30T10:04:00Z\"}\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exec := func(q string) {
		t.Helper()
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE logs (ip STRING, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '" + in + "/'")
	exec("CREATE MATERIALIZED VIEW errors_5m AS SELECT TUMBLE(ts, '5 minutes').start AS w, ip, count(*) AS n FROM logs WHERE status >= 500 GROUP BY TUMBLE(ts, '5 minutes'), ip WITH (auto_refresh = false)")
	// The first window is still open: the watermark is 10:03.
	if got := queryRows(t, eng, "SELECT w, ip, n FROM errors_5m"); len(got) != 0 {
		t.Fatalf("open window written early: %v", got)
	}
	writeFile(t, filepath.Join(in, "b.json"), "{\"ip\": \"c\", \"status\": 502, \"ts\": \"2026-11-30T10:09:00Z\"}\n")
	exec("REFRESH MATERIALIZED VIEW errors_5m")
	if got := queryRows(t, eng, "SELECT w, ip, n FROM errors_5m"); strings.Join(got, ",") != "2026-11-30 10:00:00 a 2" {
		t.Fatalf("after refresh: %v", got)
	}
	show := strings.Join(queryRows(t, eng, "SHOW MATERIALIZED VIEWS"), "\n")
	if !strings.Contains(show, "errors_5m false") {
		t.Fatalf("SHOW MATERIALIZED VIEWS: %s", show)
	}
	desc := strings.Join(queryRows(t, eng, "DESCRIBE MATERIALIZED VIEW errors_5m"), "\n")
	if !strings.Contains(desc, "output_mode append") || !strings.Contains(desc, "sink index") {
		t.Fatalf("DESCRIBE MATERIALIZED VIEW:\n%s", desc)
	}
	exec("ALTER MATERIALIZED VIEW errors_5m WITH (auto_refresh = false)")
	exec("DROP MATERIALIZED VIEW errors_5m")
	if _, err := eng.Execute(ctx, "SELECT * FROM errors_5m"); err == nil {
		t.Fatal("the view's table should be gone")
	}
	exec("DROP MATERIALIZED VIEW IF EXISTS errors_5m")
}

// TestMaterializedViewGroupIDs: a view in update mode names its documents
// by the output columns that carry every GROUP BY key (through a cast,
// too), so a changed group is overwritten; an output missing a key gets
// no derived id, rather than one that would fold the groups sharing the
// carried keys into one document; a view without GROUP BY keeps one.
func TestMaterializedViewGroupIDs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"ip\": \"a\", \"status\": 500}\n{\"ip\": \"b\", \"status\": 200}\n{\"ip\": \"a\", \"status\": 503}\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		"CREATE TABLE logs (ip STRING, status INT) USING json LOCATION '"+in+"/'",
		"CREATE MATERIALIZED VIEW subset AS SELECT ip, count(*) AS n FROM logs GROUP BY ip, status WITH (auto_refresh = false, output_mode = 'update')",
		"CREATE MATERIALIZED VIEW cast_keys AS SELECT CAST(status AS STRING) AS s, ip, count(*) AS n FROM logs GROUP BY ip, status WITH (auto_refresh = false, output_mode = 'update')",
		"CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM logs WITH (auto_refresh = false)")
	if got, want := strings.Join(queryRows(t, eng, "SELECT ip, n FROM subset"), ","), "a 1,a 1,b 1"; got != want {
		t.Fatalf("subset of the keys: %s, want %s (one document per group)", got, want)
	}
	writeFile(t, filepath.Join(in, "b.json"), "{\"ip\": \"a\", \"status\": 500}\n")
	mustExecAll(t, eng, "REFRESH MATERIALIZED VIEW cast_keys", "REFRESH MATERIALIZED VIEW total")
	if got, want := strings.Join(queryRows(t, eng, "SELECT s, ip, n FROM cast_keys"), ","), "200 b 1,500 a 2,503 a 1"; got != want {
		t.Fatalf("keys through a cast: %s, want %s (the changed group overwritten)", got, want)
	}
	// No GROUP BY: one group, so one document, replaced by each refresh.
	if got, want := strings.Join(queryRows(t, eng, "SELECT n FROM total"), ","), "4"; got != want {
		t.Fatalf("global aggregate after a refresh: %s, want %s", got, want)
	}
}
