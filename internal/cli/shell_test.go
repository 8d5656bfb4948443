package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine"
)

func TestShell(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{
		"SELECT a\nFROM t": {Schema: arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)},
		"CREATE TABLE t":   {Message: "table t created"},
	}}
	in := "help\nCREATE TABLE t;\nSELECT a\nFROM t; BOGUS;\n\nSELECT 'never run'\nexit\nSELECT 2;\n"
	var out, errs bytes.Buffer
	o := Options{DataDir: t.TempDir(), Stdin: io.NopCloser(strings.NewReader(in)), Stdout: &out, Stderr: &errs}
	if err := shell(context.Background(), o, exec, nil, JSONLines{}); err != nil {
		t.Fatal(err)
	}
	// "exit" inside an unfinished statement is part of it, so the shell
	// reads on to the end of the input.
	// BOGUS and that last statement fail to parse, so they never reach
	// the engine.
	want := []string{"CREATE TABLE t", "SELECT a\nFROM t"}
	if strings.Join(exec.ran, "|") != strings.Join(want, "|") {
		t.Errorf("ran %q, want %q", exec.ran, want)
	}
	if !strings.Contains(out.String(), "Statements end with ';'") || !strings.Contains(errs.String(), "table t created\n") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	}
	if got := errs.String(); strings.Count(got, "error: ") != 2 || !strings.Contains(got, "error: syntax error at line 2:9: expected a statement but found 'BOGUS'\n") ||
		!strings.Contains(got, "error: syntax error at line 3:1: expected end of input but found 'SELECT'\n") {
		t.Errorf("stderr:\n%s", got)
	}
}

func TestShellExit(t *testing.T) {
	exec := &scripted{}
	var out, errs bytes.Buffer
	o := Options{DataDir: t.TempDir(), Stdin: io.NopCloser(strings.NewReader("  quit; \nSELECT 1;\n")), Stdout: &out, Stderr: &errs}
	if err := shell(context.Background(), o, exec, nil, Table{}); err != nil {
		t.Fatal(err)
	}
	if len(exec.ran) != 0 {
		t.Errorf("ran %q after quit", exec.ran)
	}
	fi, err := os.Stat(filepath.Join(o.DataDir, ".sluice_history"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("history file: %v, %v; want mode 0600", fi, err)
	}
}
