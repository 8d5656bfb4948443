package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sluice/internal/engine"
)

// runShell drives the shell with piped input over a scripted engine
// that knows a table t, a view v and a stream s.
func runShell(t *testing.T, in string) (stdout, stderr string, exec *scripted) {
	t.Helper()
	exec = &scripted{answers: map[string]*engine.Result{
		"SHOW TABLES":             {},
		"SHOW MATERIALIZED VIEWS": {},
		"SHOW STREAMS":            {},
		"DESCRIBE t":              engine.StringRows([]string{"col_name", "data_type", "comment"}, [][]string{{"a", "INT", ""}, {"b", "STRING", ""}}),
		"DESCRIBE STREAM s":       engine.StringRows([]string{"key", "value"}, [][]string{{"name", "s"}}),
		"SHOW CREATE TABLE t":     engine.StringRows([]string{"createtab_stmt"}, [][]string{{"CREATE TABLE t (a INT) USING json"}}),
		"SHOW DATABASES":          engine.StringRows([]string{"namespace"}, [][]string{{"default"}}),
		"SELECT a, b FROM t":      engine.StringRows([]string{"a", "b"}, [][]string{{"1", "x"}, {"2", "two\nlines"}}),
		"SELECT a, b\nFROM t":     engine.StringRows([]string{"a", "b"}, [][]string{{"1", "x"}}),
	}}
	exec.answers["SHOW TABLES"] = engine.StringRows([]string{"name", "using", "location"}, [][]string{{"t", "json", "/d/t"}})
	exec.answers["SHOW MATERIALIZED VIEWS"] = engine.StringRows([]string{"name", "auto_refresh", "refresh_interval", "state", "checkpoint"}, [][]string{{"v", "false", "", "stopped", ""}})
	exec.answers["SHOW STREAMS"] = engine.StringRows([]string{"name", "state", "sink", "trigger", "last_epoch", "checkpoint"}, [][]string{{"s", "running", "t", "", "", ""}})
	var out, errs bytes.Buffer
	o := Options{DataDir: t.TempDir(), Stdin: io.NopCloser(strings.NewReader(in)), Stdout: &out, Stderr: &errs}
	if err := shell(context.Background(), o, exec, nil, Table{}); err != nil {
		t.Fatal(err)
	}
	// Past the banner.
	_, rest, _ := strings.Cut(out.String(), "\n")
	return rest, errs.String(), exec
}

func TestMetaCommands(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sql")
	if err := os.WriteFile(script, []byte("\\timing off\nSELECT a, b\nFROM t"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in, out, errs string
	}{
		{"dt", "\\dt\n", `
+------+-------+--------+
| name | type  | detail |
+------+-------+--------+
| t    | table | json   |
+------+-------+--------+
(1 row)
`, ""},
		{"dot tables", ".tables;\n", "table", ""},
		{"dv", "\\dv\n", `
+------+-------------------+---------+
| name | type              | detail  |
+------+-------------------+---------+
| s    | stream            | running |
| v    | materialized view | stopped |
+------+-------------------+---------+
(2 rows)
`, ""},
		{"d all", "\\d\n", "| s    | stream            | running |\n| t    | table             | json    |\n| v    | materialized view | stopped |\n", ""},
		{"d pattern", "\\d %\n", "(3 rows)", ""},
		{"d table", "\\d t\n", "| a        | INT       |         |\n", ""},
		{"d stream", "\\d s\n", "| name | s     |\n", ""},
		{"d missing", "\\d nope\n", "", "error: no answer for DESCRIBE nope\n"},
		{"df", "\\df uppe%\n", `
+-------+--------+-----------+---------+
| name  | kind   | arguments | aliases |
+-------+--------+-----------+---------+
| upper | scalar | 1         | ucase   |
+-------+--------+-----------+---------+
(1 row)
`, ""},
		{"df alias", "\\df ucase\n", "| upper |", ""},
		{"l", "\\l\n", "| default   |", ""},
		{"timing", "\\timing\nSELECT a, b FROM t;\n\\timing\nSELECT a, b FROM t;\n", "Timing is on.\n", ""},
		{"timer", ".timer on\n.timer off\n.timer\n", "Timing is on.\nTiming is off.\n", "error: .timer needs on or off\n"},
		{"x", "\\x\nSELECT a, b FROM t;\n", `Expanded display is on.
-[ RECORD 1 ]
a | 1
b | x
-[ RECORD 2 ]
a | 2
b | two
  | lines
`, ""},
		{"mode", ".mode csv\nSELECT a, b FROM t;\n.mode\n.mode xml\n", "a,b\n1,x\n2,\"two\nlines\"\n", "csv\n" + `error: unknown format "xml" (want one of csv, json, jsonl, table)` + "\n"},
		{"schema", ".schema\n.schema t\n", "CREATE TABLE t (a INT) USING json;\nCREATE TABLE t (a INT) USING json;\n", ""},
		{"include", "\\i " + script + "\n", "Timing is off.\n+---+---+\n| a | b |", ""},
		{"include missing", "\\i /nonexistent/x.sql\n", "", "error: open /nonexistent/x.sql: no such file or directory\n"},
		{"unknown", "\\zz 1\n", "", "error: unknown command \\zz; \\? lists the commands\n"},
		{"quit", "\\q\n\\dt\n", "", ""},
		{"ppl", "\\ppl\n\\sql\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, _ := runShell(t, tt.in)
			if !strings.Contains(out, strings.TrimPrefix(tt.out, "\n")) || (tt.out == "" && out != "") {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.out)
			}
			if errs != tt.errs {
				t.Errorf("stderr %q, want %q", errs, tt.errs)
			}
		})
	}
}

func TestMetaTiming(t *testing.T) {
	out, _, _ := runShell(t, "\\timing\nSELECT a, b FROM t;\n\\timing\nSELECT a, b FROM t;\n")
	got := regexp.MustCompile(`Time: [0-9]+\.[0-9] ms`).ReplaceAllString(out, "Time: N ms")
	if strings.Count(got, "Time: N ms\n") != 1 || !strings.Contains(got, "(2 rows)\nTime: N ms\nTiming is off.\n") {
		t.Errorf("stdout:\n%s", out)
	}
}

func TestMetaOutputFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "out.txt")
	out, errs, _ := runShell(t, "\\o "+file+"\nSELECT a, b FROM t;\n\\o\n\\dt\n")
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), "| 2 | two") || strings.Contains(string(b), "table") {
		t.Errorf("file: %q, %v", b, err)
	}
	if strings.Contains(out, "two") || !strings.Contains(out, "| t    | table | json   |") || errs != "" {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
}

func TestMetaHelp(t *testing.T) {
	out, _, _ := runShell(t, "\\?\n")
	for _, c := range metaCommands {
		for _, n := range c.names {
			if !strings.Contains(out, n) {
				t.Errorf("\\? lacks %s:\n%s", n, out)
			}
		}
	}
}
