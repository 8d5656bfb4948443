package engine

import (
	"strings"
	"testing"

	"sluice/internal/catalog"
)

// TestViewsStoredAndTemporary: a stored view outlives the engine that
// made it (it is in the catalog); a temporary view is its session's
// alone and gone with it.
func TestViewsStoredAndTemporary(t *testing.T) {
	dir := t.TempDir()
	eng, err := Open(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		"CREATE TABLE t (x INT) USING json LOCATION '"+t.TempDir()+"'",
		"INSERT INTO t VALUES (1), (2)",
		"CREATE VIEW v AS SELECT x * 10 AS y FROM t",
		"CREATE TEMPORARY VIEW tv AS SELECT 7 AS z")
	a, b := eng.NewSession("a"), eng.NewSession("b")
	sessionRows(t, a, "CREATE TEMPORARY VIEW mine AS SELECT 1 AS one")
	if rows := sessionRows(t, a, "SELECT * FROM mine"); len(rows) != 1 {
		t.Errorf("a's temporary view: %v", rows)
	}
	if _, err := b.Execute(t.Context(), "SELECT * FROM mine"); err == nil {
		t.Error("b read a's temporary view")
	}
	if rows := sessionRows(t, b, "SELECT y FROM v ORDER BY y"); strings.Join(rows, ",") != "10,20" {
		t.Errorf("b's SELECT FROM v = %v, want 10,20", rows)
	}
	eng.Close()

	again, err := Open(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if rows := sortedRows(t, again, "SELECT y FROM v"); strings.Join(rows, ",") != "10,20" {
		t.Errorf("after reopening, SELECT FROM v = %v, want 10,20", rows)
	}
	if _, err := again.Execute(t.Context(), "SELECT * FROM tv"); err == nil {
		t.Error("a temporary view outlived its session")
	}
}

// TestViewNeverReplacesOtherKinds: OR REPLACE replaces a view, never a
// stream or materialized view of the same name.
func TestViewNeverReplacesOtherKinds(t *testing.T) {
	eng := newTestEngine(t)
	if err := eng.Catalog().PutObject(&catalog.Object{Kind: "stream", Name: "s", SQL: "INSERT STREAM INTO o SELECT * FROM i"}, false); err != nil {
		t.Fatal(err)
	}
	_, err := eng.Execute(t.Context(), "CREATE OR REPLACE VIEW s AS SELECT 1 AS a")
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("CREATE OR REPLACE VIEW over a stream: %v, want already exists", err)
	}
	if _, err := eng.Catalog().Object("stream", "s"); err != nil {
		t.Errorf("the stream is gone: %v", err)
	}
}

// TestViewExplainedAndStreamed: EXPLAIN shows a view's query expanded,
// and a stream reads a view as it reads its tables.
func TestViewExplainedAndStreamed(t *testing.T) {
	eng := newTestEngine(t)
	mustExecAll(t, eng,
		"CREATE TABLE src (id INT) USING json LOCATION '"+t.TempDir()+"'",
		"INSERT INTO src VALUES (1), (2), (3)",
		"CREATE TABLE dst (id INT) USING json LOCATION '"+t.TempDir()+"'",
		"CREATE VIEW big AS SELECT id FROM src WHERE id > 1")
	plan := strings.Join(sortedRows(t, eng, "EXPLAIN SELECT * FROM big"), "\n")
	if !strings.Contains(plan, "src") {
		t.Errorf("EXPLAIN of a view does not show its table:\n%s", plan)
	}
	mustExec(t, eng, "INSERT STREAM INTO dst SELECT id FROM big WITH (name = 'copy', trigger = 'once')")
	if rows := strings.Join(sortedRows(t, eng, "SELECT id FROM dst"), ","); rows != "2,3" {
		t.Errorf("the stream over the view wrote %s, want 2,3", rows)
	}
}
