package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sluice/internal/storage"
)

// listFiles is every file under dir, relative and sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestInsertOverwriteFailureKeepsOldRows: a query that fails part way,
// after the sink has stored some new files (one row a file), leaves the
// table as it was: the old rows, and none of the new files.
func TestInsertOverwriteFailureKeepsOldRows(t *testing.T) {
	eng := newTestEngine(t)
	src := t.TempDir()
	// One file, read in order: thousands of good rows, then one that
	// cannot be cast, so batches are written before the failing one.
	var b strings.Builder
	for i := range 20000 {
		b.WriteString(`{"s": "` + strconv.Itoa(i) + `"}` + "\n")
	}
	b.WriteString(`{"s": "not a number"}` + "\n")
	if err := os.WriteFile(filepath.Join(src, "a.json"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		`CREATE TABLE src (s STRING) USING json LOCATION '`+src+`/'`,
		`CREATE TABLE m (id INT) USING json OPTIONS (max_rows_per_file '1000')`,
		`INSERT INTO m VALUES (1), (2)`,
	)
	dir := filepath.Join(eng.opts.DataDir, "tables", "m")
	before := listFiles(t, dir)
	_, err := eng.Execute(t.Context(), `INSERT OVERWRITE m SELECT CAST(s AS INT) FROM src`)
	if err == nil || !strings.Contains(err.Error(), "not a number") {
		t.Fatalf("INSERT OVERWRITE with a bad row: %v", err)
	}
	if got := sortedRows(t, eng, `SELECT id FROM m`); strings.Join(got, ",") != "1,2" {
		t.Fatalf("rows after the failed overwrite: %v", got)
	}
	if after := listFiles(t, dir); !slices.Equal(after, before) {
		t.Fatalf("files after the failed overwrite: %v, before %v", after, before)
	}
	// The same query without the bad row replaces them.
	mustExec(t, eng, `INSERT OVERWRITE m SELECT CAST(s AS INT) FROM src WHERE s < '2'`)
	if got := sortedRows(t, eng, `SELECT count(*) FROM m`); strings.Join(got, ",") != "11112" {
		t.Fatalf("count after the overwrite: %v", got)
	}
}

// TestInsertOverwriteForeignFiles: a file Sluice did not write in the
// table's folder (or the partition's) makes INSERT OVERWRITE refuse,
// writing and deleting nothing; an external table Sluice wrote is
// overwritten like a managed one.
func TestInsertOverwriteForeignFiles(t *testing.T) {
	eng := newTestEngine(t)
	ext := t.TempDir()
	mustExecAll(t, eng,
		`CREATE TABLE x (id INT, day STRING) USING parquet PARTITIONED BY (day) LOCATION '`+ext+`/'`,
		`INSERT INTO x VALUES (1, 'a'), (2, 'b')`,
		`INSERT OVERWRITE x PARTITION (day = 'a') VALUES (3)`,
	)
	if got := sortedRows(t, eng, `SELECT id FROM x`); strings.Join(got, ",") != "2,3" {
		t.Fatalf("rows after the partition overwrite: %v", got)
	}
	stray := filepath.Join(ext, "day=b", "notes.txt")
	if err := os.WriteFile(stray, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := listFiles(t, ext)
	_, err := eng.Execute(t.Context(), `INSERT OVERWRITE x VALUES (4, 'c')`)
	if !errors.Is(err, storage.ErrForeignFiles) || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("INSERT OVERWRITE with a stray file: %v", err)
	}
	if after := listFiles(t, ext); !slices.Equal(after, before) {
		t.Fatalf("files after the refused overwrite: %v, before %v", after, before)
	}
	// Another partition's folder is not looked at.
	mustExec(t, eng, `INSERT OVERWRITE x PARTITION (day = 'a') VALUES (5)`)
	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}
	if got := sortedRows(t, eng, `SELECT id FROM x`); strings.Join(got, ",") != "2,5" {
		t.Fatalf("rows after the second partition overwrite: %v", got)
	}
}

// TestS3InsertOverwrite: on S3 the old objects are listed and deleted
// through the store as on disk, a partition's only with PARTITION.
func TestS3InsertOverwrite(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	eng := newTestEngine(t)
	mustExecAll(t, eng,
		fmt.Sprintf("CREATE TABLE o (id INT, day STRING) USING parquet PARTITIONED BY (day) LOCATION 's3://%s/o/' %s", bucket, s3Opts(srv.Endpoint)),
		"INSERT INTO o VALUES (1, 'a'), (2, 'b')",
		"INSERT OVERWRITE o PARTITION (day = 'a') VALUES (3), (4)",
	)
	if got := sortedRows(t, eng, "SELECT id, day FROM o"); strings.Join(got, ",") != "2|b,3|a,4|a" {
		t.Fatalf("after the partition overwrite: %v", got)
	}
	mustExec(t, eng, "INSERT OVERWRITE o VALUES (5, 'c')")
	if got := sortedRows(t, eng, "SELECT id, day FROM o"); strings.Join(got, ",") != "5|c" {
		t.Fatalf("after the overwrite: %v", got)
	}
}
