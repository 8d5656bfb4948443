package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTruncateTableKeepsForeignFiles: TRUNCATE removes only what
// Sluice wrote; a folder holding someone else's file is refused whole,
// its rows all still there (as DROP refuses it).
func TestTruncateTableKeepsForeignFiles(t *testing.T) {
	eng := newTestEngine(t)
	mustExecAll(t, eng, "CREATE TABLE m (id INT) USING json", "INSERT INTO m VALUES (1), (2)")
	tbl, err := eng.Catalog().Table("m")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tbl.Spec.Location, "mine.json"), []byte(`{"id": 3}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Execute(t.Context(), "TRUNCATE TABLE m"); err == nil {
		t.Fatal("TRUNCATE deleted a folder holding a file Sluice did not write")
	}
	if rows := strings.Join(sortedRows(t, eng, "SELECT id FROM m"), ","); rows != "1,2,3" {
		t.Errorf("after the refused TRUNCATE, m = %s, want 1,2,3", rows)
	}
}
