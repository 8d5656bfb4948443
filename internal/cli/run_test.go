package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine"
	"sluice/internal/sql"
)

// scripted answers parsed statements from a table keyed by their source
// text and records what it ran.
type scripted struct {
	answers map[string]*engine.Result
	ran     []string
}

func (s *scripted) ExecuteStatement(_ context.Context, st sql.Statement) (*engine.Result, error) {
	s.ran = append(s.ran, st.Text())
	if r, ok := s.answers[st.Text()]; ok {
		return r, nil
	}
	return nil, errors.New("no answer for " + st.Text())
}

func TestRunScript(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{
		"CREATE TABLE t (a INT)": {Message: "table created"},
		"SELECT a FROM t":        {Schema: arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)},
	}}
	tests := []struct {
		script, out, err string
	}{
		{"CREATE TABLE t (a INT);\nSELECT a FROM t;", "[]\n", ""},
		{"CREATE TABLE t (a INT);\n\n  BOGUS;\nSELECT a FROM t;", "", "x.sql:3: syntax error at line 3:3: expected a statement but found 'BOGUS'"},
		{"BOGUS", "", "syntax error at line 1:1: expected a statement but found 'BOGUS'"},
		{"SELECT a FROM t;\nSELECT nope;", "[]\n", "x.sql:2: no answer for SELECT nope"},
		{"-- nothing\n", "", ""},
		{"SELECT a FROM t\n", "[]\n", ""},
		{"SELECT a FROM t; SELECT 'open", "", "x.sql: unterminated quote or comment after the last statement"},
	}
	for _, tt := range tests {
		var out, msgs bytes.Buffer
		err := runScript(context.Background(), exec, nil, newOutput(JSON{}, &out, &msgs), "x.sql", tt.script)
		if strings.HasPrefix(tt.script, "CREATE") && msgs.String() != "table created\n" {
			t.Errorf("%q: messages %q, want them on stderr", tt.script, msgs.String())
		}
		if got := errString(err); got != tt.err {
			t.Errorf("%q: error %q, want %q", tt.script, got, tt.err)
		}
		if out.String() != tt.out {
			t.Errorf("%q: output %q, want %q", tt.script, out.String(), tt.out)
		}
	}
}

func TestRunSQLOptions(t *testing.T) {
	err := RunSQL(context.Background(), Options{Exec: "SELECT 1", File: "x.sql", Format: "table", DataDir: t.TempDir()})
	if errString(err) != "give either -e or -f, not both" {
		t.Errorf("got %v", err)
	}
	err = RunSQL(context.Background(), Options{Exec: "SELECT 1", Format: "yaml", DataDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), `unknown format "yaml"`) {
		t.Errorf("got %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestTableMessagesOnStdout(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{"CREATE TABLE t": {Message: "table created"}}}
	var out, msgs bytes.Buffer
	if err := runScript(context.Background(), exec, nil, newOutput(Table{}, &out, &msgs), "-e", "CREATE TABLE t"); err != nil {
		t.Fatal(err)
	}
	if out.String() != "table created\n" || msgs.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", out.String(), msgs.String())
	}
}
