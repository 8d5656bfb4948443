package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/stream"
)

// badFileRig is a json table of three files, the second with a bad line.
type badFileRig struct {
	dir, in string
	eng     *Engine
	lines   []stream.Progress
}

func newBadFileRig(t *testing.T, tableOpts string) *badFileRig {
	t.Helper()
	r := &badFileRig{dir: t.TempDir()}
	r.in = filepath.Join(r.dir, "in")
	writeFile(t, filepath.Join(r.in, "a.json"), "{\"id\": 1}\n{\"id\": 2}\n")
	writeFile(t, filepath.Join(r.in, "b.json"), "{\"id\": 3}\n{\"id\": oops\n{\"id\": 4}\n")
	writeFile(t, filepath.Join(r.in, "c.json"), "{\"id\": 5}\n")
	eng, err := Open(Options{DataDir: filepath.Join(r.dir, "data"), StreamProgress: func(p stream.Progress) { r.lines = append(r.lines, p) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	r.eng = eng
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT) USING json LOCATION '" + r.in + "/' " + tableOpts,
		"CREATE TABLE out (id BIGINT) USING json LOCATION '" + filepath.Join(r.dir, "out") + "/'",
	} {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

const badStream = "INSERT STREAM INTO out SELECT id FROM src WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 1%s)"

// failFast runs the stream into the bad file and checks the error names
// the file and the line.
func (r *badFileRig) failFast(t *testing.T) {
	t.Helper()
	_, err := r.eng.Execute(context.Background(), strings.Replace(badStream, "%s", "", 1))
	if err == nil {
		t.Fatal("FAILFAST should stop the stream at b.json")
	}
	if msg := err.Error(); !strings.Contains(msg, "b.json:2:") {
		t.Fatalf("the error should name the file and line: %v", err)
	}
	desc := strings.Join(queryRows(t, r.eng, "DESCRIBE STREAM feed"), "\n")
	if !strings.Contains(desc, "state failed") || !strings.Contains(desc, "b.json") {
		t.Fatalf("DESCRIBE STREAM after the failure:\n%s", desc)
	}
}

// TestStreamFailFastFixFile: the stream stops at the bad file with its
// name and line; once the file is fixed, START STREAM resumes and reads it.
func TestStreamFailFastFixFile(t *testing.T) {
	r := newBadFileRig(t, "OPTIONS (mode 'FAILFAST')")
	r.failFast(t)
	// Longer than the recorded size: the replay must read all of it.
	writeFile(t, filepath.Join(r.in, "b.json"), "{\"id\": 3}\n{\"id\": 4}\n{\"id\": 40}\n{\"id\": 41}\n")
	if _, err := r.eng.Execute(context.Background(), "START STREAM feed"); err != nil {
		t.Fatalf("START STREAM after fixing the file: %v", err)
	}
	if got := strings.Join(queryRows(t, r.eng, "SELECT id FROM out"), ","); got != "1,2,3,4,40,41,5" {
		t.Fatalf("out = %s", got)
	}
}

// TestStreamFailFastSkipFiles: naming the bad file in skip_files lets the
// stream resume past it.
func TestStreamFailFastSkipFiles(t *testing.T) {
	r := newBadFileRig(t, "OPTIONS (mode 'FAILFAST')")
	r.failFast(t)
	if _, err := r.eng.Execute(context.Background(), strings.Replace(badStream, "%s", ", skip_files = 'b.json'", 1)); err != nil {
		t.Fatalf("resuming with skip_files: %v", err)
	}
	if got := strings.Join(queryRows(t, r.eng, "SELECT id FROM out"), ","); got != "1,2,5" {
		t.Fatalf("out = %s", got)
	}
	// The definition kept skip_files, so START STREAM later agrees.
	if _, err := r.eng.Execute(context.Background(), "START STREAM feed"); err != nil {
		t.Fatal(err)
	}
}

// TestStreamDropMalformedDeadLetter: DROPMALFORMED drops the bad line,
// writes it with file, line and reason to the dead-letter location, and
// counts it in the epoch's progress and DESCRIBE STREAM.
func TestStreamDropMalformedDeadLetter(t *testing.T) {
	dead := filepath.Join(t.TempDir(), "dead")
	r := newBadFileRig(t, "OPTIONS (mode 'DROPMALFORMED', dead_letter_location '"+dead+"/')")
	if _, err := r.eng.Execute(context.Background(), strings.Replace(badStream, "%s", "", 1)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(queryRows(t, r.eng, "SELECT id FROM out"), ","); got != "1,2,3,4,5" {
		t.Fatalf("out = %s", got)
	}
	var bad []int64
	for _, p := range r.lines {
		bad = append(bad, p.BadRows)
		if p.BadRows > 0 && !strings.Contains(p.Line(), "bad=1") {
			t.Fatalf("progress line should show the bad row: %s", p.Line())
		}
	}
	if len(bad) != 3 || bad[0] != 0 || bad[1] != 1 || bad[2] != 0 {
		t.Fatalf("bad rows per epoch %v, want [0 1 0]", bad)
	}
	desc := strings.Join(queryRows(t, r.eng, "DESCRIBE STREAM feed"), "\n")
	if !strings.Contains(desc, "bad_rows 1") {
		t.Fatalf("DESCRIBE STREAM should count the bad row:\n%s", desc)
	}
	ents, err := os.ReadDir(dead)
	if err != nil || len(ents) != 1 {
		t.Fatalf("want one dead-letter report, got %v (%v)", ents, err)
	}
	data, err := os.ReadFile(filepath.Join(dead, ents[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if strings.Count(s, "\n") != 1 || !strings.Contains(s, "b.json") || !strings.Contains(s, `"line":2`) || !strings.Contains(s, "reason") || !strings.Contains(s, "oops") {
		t.Fatalf("dead-letter report: %s", s)
	}
}
