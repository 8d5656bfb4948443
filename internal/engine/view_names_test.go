package engine

import (
	"strings"
	"testing"

	"sluice/internal/catalog"
)

// TestStoredViewKeepsItsColumnNames: a view stored by an older binary,
// whose generated names were then `x + 1` and `upper('a')`, keeps them
// though Spark's names, which this binary generates, are (x + 1) and
// upper(a); a view made now stores Spark's.
func TestStoredViewKeepsItsColumnNames(t *testing.T) {
	eng := newTestEngine(t)
	mustExecAll(t, eng,
		"CREATE TABLE t (x INT) USING json LOCATION '"+t.TempDir()+"'",
		"INSERT INTO t VALUES (1), (2)")
	old := &catalog.Object{Kind: viewKind, Name: "old",
		SQL:     "CREATE VIEW old AS SELECT x + 1, upper('a'), x FROM t",
		Options: []byte(`{"database":"default","output":["x + 1","upper('a')","x"]}`)}
	if err := eng.Catalog().PutObject(old, false); err != nil {
		t.Fatal(err)
	}
	if rows := sortedRows(t, eng, "SELECT `x + 1`, `upper('a')`, x FROM old"); strings.Join(rows, ",") != "2|A|1,3|A|2" {
		t.Errorf("the old view's columns by their stored names: %v", rows)
	}
	mustExec(t, eng, "CREATE VIEW fresh AS SELECT x + 1, upper('a') FROM t")
	if rows := sortedRows(t, eng, "SELECT `(x + 1)`, `upper(a)` FROM fresh"); strings.Join(rows, ",") != "2|A,3|A" {
		t.Errorf("a new view's columns by Spark's names: %v", rows)
	}
}
