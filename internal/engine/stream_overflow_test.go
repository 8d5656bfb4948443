package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// overflowStream sets up a stream over three files whose middle one holds
// a row that overflows n + 1, under the given mode.
func overflowStream(t *testing.T, mode string) (eng *Engine, in, dead string) {
	t.Helper()
	dir := t.TempDir()
	in = filepath.Join(dir, "in")
	dead = filepath.Join(dir, "dead")
	writeFile(t, filepath.Join(in, "a.json"), "{\"n\": 1}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"n\": 2}\n{\"n\": 9223372036854775807}\n{\"n\": 3}\n")
	writeFile(t, filepath.Join(in, "c.json"), "{\"n\": 5}\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	mustExecAll(t, eng,
		"CREATE TABLE src (n BIGINT) USING json LOCATION '"+in+"/' OPTIONS (mode '"+mode+"', dead_letter_location '"+dead+"')",
		"CREATE TABLE out (n BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
	)
	return eng, in, dead
}

const overflowInsert = "INSERT STREAM INTO out SELECT n + 1 AS n FROM src WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 1)"

// TestStreamArithmeticOverflowIsABadRow: in a stream, a row whose
// expression overflows is a bad row under the table's mode. Under
// DROPMALFORMED the stream goes on: the row is dropped, counted in
// DESCRIBE STREAM and written to the dead-letter location with its file,
// row and the expression's error; every other row arrives.
func TestStreamArithmeticOverflowIsABadRow(t *testing.T) {
	eng, _, dead := overflowStream(t, "DROPMALFORMED")
	if _, err := eng.Execute(context.Background(), overflowInsert); err != nil {
		t.Fatalf("the stream stopped on a bad row: %v", err)
	}
	if got := strings.Join(sortedRows(t, eng, "SELECT n FROM out"), ","); got != "2,3,4,6" {
		t.Fatalf("out = %s, want every row but the overflowing one", got)
	}
	desc := strings.Join(queryRows(t, eng, "DESCRIBE STREAM feed"), "\n")
	if !strings.Contains(desc, "bad_rows 1") {
		t.Errorf("DESCRIBE STREAM does not count the bad row:\n%s", desc)
	}
	var report string
	_ = filepath.Walk(dead, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			report += string(b)
		}
		return nil
	})
	for _, want := range []string{"b.json", "row 2", "arithmetic overflow in (n + 1)"} {
		if !strings.Contains(report, want) {
			t.Errorf("dead letter lacks %q: %s", want, report)
		}
	}
}

// TestStreamArithmeticOverflowFailFast: under FAILFAST the epoch fails,
// never the process and never silently: the error names the stream, the
// file, the row and the expression; DESCRIBE STREAM shows the failure;
// nothing of the epoch is committed, and once the data is fixed START
// STREAM resumes from there.
func TestStreamArithmeticOverflowFailFast(t *testing.T) {
	eng, in, _ := overflowStream(t, "FAILFAST")
	ctx := context.Background()
	_, err := eng.Execute(ctx, overflowInsert)
	if err == nil {
		t.Fatal("the overflow should fail the epoch under FAILFAST")
	}
	msg := err.Error()
	for _, want := range []string{"feed", "b.json: row 2", "arithmetic overflow in (n + 1): 9223372036854775807 + 1 does not fit in BIGINT"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error should contain %q: %s", want, msg)
		}
	}
	desc := strings.Join(queryRows(t, eng, "DESCRIBE STREAM feed"), "\n")
	if !strings.Contains(desc, "state failed") || !strings.Contains(desc, "arithmetic overflow") {
		t.Errorf("DESCRIBE STREAM after the failure:\n%s", desc)
	}
	if got := strings.Join(sortedRows(t, eng, "SELECT n FROM out"), ","); got != "2" {
		t.Fatalf("out after the failed epoch = %s, want only a.json's row", got)
	}
	writeFile(t, filepath.Join(in, "b.json"), "{\"n\": 2}\n{\"n\": 3}\n")
	if _, err := eng.Execute(ctx, "START STREAM feed"); err != nil {
		t.Fatalf("START STREAM after fixing the file: %v", err)
	}
	if got := strings.Join(sortedRows(t, eng, "SELECT n FROM out"), ","); got != "2,3,4,6" {
		t.Fatalf("out = %s", got)
	}
}

// TestBatchArithmeticOverflowFails: a batch query is not a feed: the
// overflow fails it whatever the table's mode (Spark's ANSI rule).
func TestBatchArithmeticOverflowFails(t *testing.T) {
	eng, _, _ := overflowStream(t, "DROPMALFORMED")
	_, err := eng.Execute(context.Background(), "SELECT n + 1 FROM src")
	if err == nil || !strings.Contains(err.Error(), "arithmetic overflow in (n + 1)") {
		t.Fatalf("batch overflow: %v", err)
	}
}
