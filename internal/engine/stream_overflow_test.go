package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamArithmeticOverflow: an expression that overflows on a row of
// a streaming epoch fails the epoch (ANSI arithmetic), never the process
// and never silently: the error names the stream, the expression and the
// value, DESCRIBE STREAM shows the failure, nothing of the epoch is
// committed, and once the data is fixed START STREAM resumes from there.
// Expression errors are not bad rows of the source's mode: the mode
// governs decoding; the query then fails as FAILFAST does.
func TestStreamArithmeticOverflow(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"n\": 1}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"n\": 2}\n{\"n\": 9223372036854775807}\n")
	writeFile(t, filepath.Join(in, "c.json"), "{\"n\": 5}\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE src (n BIGINT) USING json LOCATION '" + in + "/' OPTIONS (mode 'DROPMALFORMED')",
		"CREATE TABLE out (n BIGINT) USING json LOCATION '" + filepath.Join(dir, "out") + "/'",
	} {
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	const q = "INSERT STREAM INTO out SELECT n + 1 AS n FROM src WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 1)"
	_, err = eng.Execute(ctx, q)
	if err == nil {
		t.Fatal("the overflow should fail the epoch")
	}
	msg := err.Error()
	t.Logf("error: %s", msg)
	for _, want := range []string{"feed", "arithmetic overflow in (n + 1): 9223372036854775807 + 1 does not fit in BIGINT"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error should contain %q: %s", want, msg)
		}
	}
	desc := strings.Join(queryRows(t, eng, "DESCRIBE STREAM feed"), "\n")
	t.Logf("DESCRIBE STREAM:\n%s", desc)
	if !strings.Contains(desc, "state failed") || !strings.Contains(desc, "arithmetic overflow") {
		t.Errorf("DESCRIBE STREAM after the failure:\n%s", desc)
	}
	if got := strings.Join(queryRows(t, eng, "SELECT n FROM out"), ","); got != "2" {
		t.Fatalf("out after the failed epoch = %s, want only a.json's row", got)
	}
	writeFile(t, filepath.Join(in, "b.json"), "{\"n\": 2}\n{\"n\": 3}\n")
	if _, err := eng.Execute(ctx, "START STREAM feed"); err != nil {
		t.Fatalf("START STREAM after fixing the file: %v", err)
	}
	if got := strings.Join(queryRows(t, eng, "SELECT n FROM out"), ","); got != "2,3,4,6" {
		t.Fatalf("out = %s", got)
	}
}
