package cli

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/ptyscreen"
)

var updateScreens = flag.Bool("update-screens", false, "rewrite testdata/screens/*.txt from the screens the shell draws")

// screen is the shell on a pseudo-terminal of a fixed size, seen
// through a terminal emulator (ptyscreen).
type screen struct {
	*ptyscreen.Screen
	t *testing.T
}

// openScreen starts the shell over dataDir on a cols × rows terminal.
func openScreen(t *testing.T, dataDir string, cols, rows int) *screen {
	t.Helper()
	ps := ptyscreen.Open(t, cols, rows)
	s := &screen{Screen: ps, t: t}
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- Shell(ctx, Options{DataDir: dataDir, Format: "table", Stdin: ps.TTY, Stdout: ps.TTY, Stderr: ps.TTY})
	}()
	t.Cleanup(func() {
		cancel()
		ps.Type("\x04") // Ctrl-D, should the test have stopped early
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the shell did not end")
		}
	})
	s.waitFor("sluice>")
	return s
}

func (s *screen) text() string               { return s.Text() }
func (s *screen) waitFor(want string) string { return s.WaitFor(want) }
func (s *screen) typeKeys(keys string)       { s.Type(keys) }

// stable replaces what changes from run to run (times, the version) so
// a screen compares with its golden file.
var screenNoise = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`Time: [0-9.]+ ms`), "Time: N ms"},
	{regexp.MustCompile(`^Sluice .*\. End statements`), "Sluice VERSION. End statements"},
	{regexp.MustCompile(`\([0-9.]+ ?(ms|s|µs)\)`), "(T)"},
}

func stableScreen(text string) string {
	lines := strings.Split(text, "\n")
	for i := range lines {
		for _, n := range screenNoise {
			lines[i] = n.re.ReplaceAllString(lines[i], n.with)
		}
	}
	return strings.Join(lines, "\n")
}

// golden compares a screen with testdata/screens/name.txt.
func golden(t *testing.T, name, got string) {
	t.Helper()
	got = stableScreen(got)
	path := filepath.Join("testdata", "screens", name+".txt")
	if *updateScreens {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-screens to write it)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("screen %s differs from %s\n--- got:\n%s--- want:\n%s", name, path, got, want)
	}
}

// screenDataDir is a data dir with one JSON table, events, whose one
// long message shows how cells fit the terminal.
func screenDataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	rows := `{"id": 1, "status": 200, "message": "ok"}
{"id": 2, "status": 404, "message": "` + strings.Repeat("not found ", 14) + `end"}
`
	if err := os.WriteFile(filepath.Join(in, "a.json"), []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := RunSQL(context.Background(), Options{DataDir: dir, Format: "table", Stdout: &out, Stderr: io.Discard,
		Exec: "CREATE TABLE events (id BIGINT, status INT, message STRING) USING json LOCATION '" + in + "'"})
	if err != nil {
		t.Fatalf("creating events: %v", err)
	}
	return dir
}

// TestShellScreens drives the shell on an 80 × 24 pseudo-terminal the
// way a psql or DuckDB user would and compares what the terminal shows
// with golden screens: meta commands, \timing, completion, tables cut to
// the terminal's width, \x for wide rows, a DuckDB habit's hint.
func TestShellScreens(t *testing.T) {
	dir := screenDataDir(t)
	cases := []struct {
		name string
		keys []string // each typed, then waited on until the next prompt
		want string   // what the last screen must show besides the prompt
	}{
		{"meta_dt", []string{`\dt` + "\r", `\d events` + "\r"}, "message"},
		{"timing", []string{`\timing` + "\r", "SELECT count(*) AS n FROM events;\r"}, "Time: "},
		{"complete_table", []string{"SELECT id FROM ev\t"}, "FROM events"},
		{"complete_list", []string{"SELECT coun\t\t"}, "count_if"},
		{"wide_cut", []string{"SELECT * FROM events ORDER BY id;\r"}, "(2 rows)"},
		{"expanded", []string{`\x` + "\r", "SELECT * FROM events WHERE id = 2;\r"}, "message |"},
		{"duckdb_hint", []string{"FROM events;\r"}, "hint"},
		{"help", []string{`\?` + "\r"}, `\q`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := openScreen(t, dir, 80, 24)
			var last string
			for i, k := range tc.keys {
				s.typeKeys(k)
				if strings.HasSuffix(k, "\r") {
					// The prompt comes back once the line ran.
					last = s.waitForPrompts(i + 2)
				}
			}
			last = s.waitFor(tc.want)
			golden(t, tc.name, last)
			s.typeKeys("\x15\\q\r") // Ctrl-U drops a half-typed line
		})
	}
}

// waitForPrompts waits until n prompts are on the screen or the screen
// scrolled (a full screen): each line run ends with a fresh prompt.
func (s *screen) waitForPrompts(n int) string {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		text := s.text()
		lines := strings.Count(text, "\n")
		if strings.Count(text, "sluice>") >= n || (lines >= 23 && strings.HasSuffix(strings.TrimRight(text, "\n"), "sluice>")) {
			return s.waitFor("sluice>")
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the shell did not come back with a prompt:\n%s", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
