package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamFailFastFixedFileNoDuplicates: a FAILFAST epoch writes some
// rows to an index sink (ids hash the epoch and the row) before a bad row
// fails it; the file is fixed and the stream started again. The replay
// reads the fixed file under the same epoch, overwriting what the failed
// attempt wrote, and records the version it read, so that with
// reprocess_changed_files the file is not read again in the next epoch:
// every row once. (It was read again: 2,3,3,4,4.)
func TestStreamFailFastFixedFileNoDuplicates(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"n\": 1}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"n\": 2}\n{\"n\": 9223372036854775807}\n{\"n\": 3}\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	mustExecAll(t, eng,
		"CREATE TABLE src (n BIGINT) USING json LOCATION '"+in+"/' OPTIONS (mode 'FAILFAST', reprocess_changed_files 'true')",
		"CREATE TABLE out (n BIGINT) USING index OPTIONS (path '"+filepath.Join(dir, "idx")+"')",
	)
	ctx := context.Background()
	if _, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT n + 1 AS n FROM src WITH (name = 'feed', trigger = 'available_now')"); err == nil {
		t.Fatal("the overflow should fail the epoch under FAILFAST")
	}
	writeFile(t, filepath.Join(in, "b.json"), "{\"n\": 2}\n{\"n\": 3}\n")
	if _, err := eng.Execute(ctx, "START STREAM feed"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sortedRows(t, eng, "SELECT n FROM out"), ","); got != "2,3,4" {
		t.Fatalf("out = %s, want 2,3,4", got)
	}
}
