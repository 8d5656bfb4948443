package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine"
	"sluice/internal/sql"
)

func selectA() *engine.Result {
	return &engine.Result{Schema: arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)}
}

// TestScriptSyntaxErrorInThirdStatement: statements are parsed one at a
// time, so the two before a syntax error run (and print) first, and the
// error names the script line of the bad statement's first token (line 6,
// past the comment before it) and the script's line and column of the
// error, not the statement's.
func TestScriptSyntaxErrorInThirdStatement(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{
		"CREATE TABLE t (a INT)": {Message: "table created"},
		"SELECT a\n  FROM t":     selectA(),
	}}
	var out, msgs bytes.Buffer
	script := "CREATE TABLE t (a INT);\nSELECT a\n  FROM t;\n\n-- the third\nSELEC a FROM t;\nSELECT a FROM t;\n"
	err := runScript(context.Background(), exec, nil, newOutput(JSON{}, &out, &msgs), "x.sql", script)
	if want := "x.sql:6: syntax error at line 6:1: expected a statement but found 'SELEC'"; errString(err) != want {
		t.Fatalf("error %q, want %q", errString(err), want)
	}
	if strings.Join(exec.ran, "|") != "CREATE TABLE t (a INT)|SELECT a\n  FROM t" {
		t.Errorf("ran %q", exec.ran)
	}
	if out.String() != "[]\n" || msgs.String() != "table created\n" {
		t.Errorf("stdout %q, stderr %q: the first two results should be printed", out.String(), msgs.String())
	}
}

func TestSplitPieces(t *testing.T) {
	pieces, unfinished := splitPieces("SELECT 1; SELECT 2;\n\n-- c\nSELECT 'a;\nb';\nSELECT", 10)
	if !unfinished || len(pieces) != 3 {
		t.Fatalf("%v %v", pieces, unfinished)
	}
	for i, want := range []piece{{text: "SELECT 1", line: 10, start: 10, col: 1}, {text: "SELECT 2", line: 10, start: 10, col: 11}, {text: "-- c\nSELECT 'a;\nb'", line: 13, start: 12, col: 1}} {
		if pieces[i] != want {
			t.Errorf("piece %d: %+v, want %+v", i, pieces[i], want)
		}
	}
}

// TestRunReaderRunsAsStatementsArrive: a statement from stdin runs as
// soon as its line is complete, while the input is still open.
func TestRunReaderRunsAsStatementsArrive(t *testing.T) {
	exec := &notifying{scripted: scripted{answers: map[string]*engine.Result{
		"CREATE TABLE t (a INT)": {Message: "table created"},
		"SELECT a FROM t":        selectA(),
		"SELECT a\nFROM t":       selectA(),
	}}, ran: make(chan string, 10)}
	pr, pw := io.Pipe()
	var out, msgs bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- runReader(context.Background(), exec, nil, newOutput(JSON{}, &out, &msgs), "stdin", pr)
	}()
	send := func(s string) {
		if _, err := io.WriteString(pw, s); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(want string) {
		t.Helper()
		select {
		case got := <-exec.ran:
			if got != want {
				t.Fatalf("ran %q, want %q", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q did not run while stdin was open", want)
		}
	}
	send("CREATE TABLE t (a INT);\n")
	expect("CREATE TABLE t (a INT)")
	send("SELECT a\n")
	send("FROM t; SELECT a")
	send(" FROM t;\n\n")
	expect("SELECT a\nFROM t")
	expect("SELECT a FROM t")
	send("SELECT a FROM t\n")
	pw.Close()
	expect("SELECT a FROM t") // the last statement needs no ';'
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if out.String() != "[]\n[]\n[]\n" {
		t.Errorf("stdout %q", out.String())
	}
}

// notifying is scripted that also reports each statement on a channel.
type notifying struct {
	scripted
	ran chan string
}

func (n *notifying) ExecuteStatement(ctx context.Context, st sql.Statement) (*engine.Result, error) {
	r, err := n.scripted.ExecuteStatement(ctx, st)
	n.ran <- st.Text()
	return r, err
}

func TestRunReaderErrors(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{"SELECT a FROM t": selectA()}}
	tests := []struct{ in, err string }{
		{"SELECT a FROM t;\n\nBOGUS;\nSELECT a FROM t;\n", "stdin:3: syntax error at line 3:1: expected a statement but found 'BOGUS'"},
		{"BOGUS", "syntax error at line 1:1: expected a statement but found 'BOGUS'"},
		{"SELECT a FROM t;\nSELECT 'open\n", "stdin: unterminated quote or comment after the last statement"},
		{"-- only a comment\n", ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := runReader(context.Background(), exec, nil, newOutput(JSON{}, &out, io.Discard), "stdin", strings.NewReader(tt.in))
		if errString(err) != tt.err {
			t.Errorf("%q: error %q, want %q", tt.in, errString(err), tt.err)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for the stream's progress writer
// and the test reading it at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunSQLStdinStreamStartsBeforeEOF: with the real engine, an INSERT
// STREAM read from stdin commits its epoch while stdin is still open.
func TestRunSQLStdinStreamStartsBeforeEOF(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "a.json"), []byte("{\"id\": 1}\n{\"id\": 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- RunSQL(context.Background(), Options{DataDir: filepath.Join(dir, "data"), Format: "jsonl", Stdin: pr, Stdout: &stdout, Stderr: &stderr})
	}()
	script := "CREATE TABLE src (id BIGINT) USING json LOCATION '" + in + "/';\n" +
		"CREATE TABLE out (id BIGINT) USING json LOCATION '" + filepath.Join(dir, "out") + "/';\n" +
		"INSERT STREAM INTO out SELECT id FROM src WITH (name = 'feed', trigger = 'once');\n"
	if _, err := io.WriteString(pw, script); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "epoch 0") {
		if time.Now().After(deadline) {
			t.Fatalf("the stream did not run before stdin closed; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := io.WriteString(pw, "SELECT count(*) AS n FROM out;\n"); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), `{"n":2}`) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}
