package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainJoinReadsNoBuildSide: EXPLAIN of a join compiles the build
// side without reading it, so a build side that cannot be read fails the
// query but not its EXPLAIN (which still lists its files).
func TestExplainJoinReadsNoBuildSide(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs.json")
	users := filepath.Join(dir, "users.parquet")
	if err := os.WriteFile(logs, []byte(`{"uid": 1, "path": "/a"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(users, []byte("not parquet at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE logs (uid BIGINT, path STRING) USING json LOCATION '"+logs+"'",
		"CREATE TABLE users (uid BIGINT, name STRING) USING parquet LOCATION '"+users+"'")
	q := "SELECT l.path, u.name FROM logs l JOIN users u ON l.uid = u.uid"
	if _, err := eng.Execute(ctx, q); err == nil || !strings.Contains(err.Error(), "building join side") {
		t.Fatalf("query over an unreadable build side: %v", err)
	}
	res, err := eng.Execute(ctx, "EXPLAIN "+q)
	if err != nil {
		t.Fatalf("EXPLAIN read the build side: %v", err)
	}
	plan := strings.Join(rowsOf(t, res[0]), "\n")
	if !strings.Contains(plan, "HashJoin") || !strings.Contains(plan, "users.parquet files=1") {
		t.Errorf("EXPLAIN:\n%s", plan)
	}
}
