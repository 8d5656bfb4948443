package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine"
)

var rowsA = &engine.Result{Schema: arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)}

// TestShellPPL: \ppl makes the shell read PPL queries (sent as the SQL
// statement PPL '...'), \sql goes back; a PPL syntax error is reported
// with its line:column and the shell goes on.
func TestShellPPL(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{
		"PPL 'source=t | fields a'": rowsA,
		"SELECT a FROM t":           rowsA,
	}}
	in := "\\ppl\nsource=t | fields a;\nsource=t | bogus;\n\\sql\nSELECT a FROM t;\n"
	var out, errs bytes.Buffer
	o := Options{DataDir: t.TempDir(), Stdin: io.NopCloser(strings.NewReader(in)), Stdout: &out, Stderr: &errs}
	if err := shell(context.Background(), o, exec, nil, JSONLines{}); err != nil {
		t.Fatal(err)
	}
	want := "PPL 'source=t | fields a'|SELECT a FROM t"
	if got := strings.Join(exec.ran, "|"); got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
	if !strings.Contains(errs.String(), `error: PPL syntax error at line 1:12: unknown command "bogus"`) {
		t.Errorf("stderr:\n%s", errs.String())
	}
}

// TestRunPPL: `sluice ppl -e` runs each ';'-separated query as PPL.
func TestRunPPL(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{"PPL 'source=t | where b = \\'x\\' | fields a'": rowsA}}
	var out, msgs bytes.Buffer
	err := runPPL(context.Background(), exec, nil, newOutput(JSON{}, &out, &msgs), "-e", "source=t | where b = 'x' | fields a;\nsource=t | head x", false, nil)
	if err == nil || err.Error() != "-e:2: PPL syntax error at line 1:17: expected '|' or end of query but found 'x'" {
		t.Errorf("err = %v", err)
	}
	if len(exec.ran) != 1 || out.String() != "[]\n" {
		t.Errorf("ran %q, out %q", exec.ran, out.String())
	}
}
