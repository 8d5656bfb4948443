package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/storage"
)

// TestManagedFileTableDrop: DROP of a file table Sluice placed in the data
// dir removes its files and partition folders, and refuses, deleting
// nothing, when the folder holds a file Sluice did not write.
func TestManagedFileTableDrop(t *testing.T) {
	eng := newTestEngine(t)
	mustExec(t, eng, `CREATE TABLE m (id INT, day STRING) USING json PARTITIONED BY (day)`)
	mustExec(t, eng, `INSERT INTO m VALUES (1, 'a'), (2, 'b')`)
	dir := filepath.Join(eng.opts.DataDir, "tables", "m")
	stray := filepath.Join(dir, "day=a", "notes.txt")
	if err := os.WriteFile(stray, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := eng.Execute(t.Context(), `DROP TABLE m`)
	if !errors.Is(err, storage.ErrForeignFiles) || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("DROP with a stray file: %v", err)
	}
	if got := sortedRows(t, eng, `SELECT id FROM m WHERE id IS NOT NULL`); strings.Join(got, ",") != "1,2" {
		t.Fatalf("rows after the refused DROP: %v", got)
	}
	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}
	mustExec(t, eng, `DROP TABLE m`)
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the table's folder is still there: %v", err)
	}
	// An external table's files stay.
	ext := t.TempDir()
	if err := os.WriteFile(filepath.Join(ext, "a.json"), []byte(`{"id":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, eng, `CREATE TABLE x (id INT) USING json LOCATION '`+ext+`'`)
	mustExec(t, eng, `DROP TABLE x`)
	if _, err := os.Stat(filepath.Join(ext, "a.json")); err != nil {
		t.Fatalf("DROP of an external table removed its file: %v", err)
	}
}
