package sql

import (
	"errors"
	"strings"
	"testing"
)

// errorCases pins every error form to its exact message and position.
var errorCases = []struct{ in, want string }{
	{"SELECT (1", "syntax error at line 1:10: expected ')' but found end of input"},
	{"SELECT a FROM t WHERE", "syntax error at line 1:22: expected expression but found end of input"},
	{"SELECT )", "syntax error at line 1:8: expected expression but found ')'"},
	{"SELECT 'abc", "syntax error at line 1:8: unterminated string literal"},
	{"SELECT `abc", "syntax error at line 1:8: unterminated quoted identifier"},
	{"SELECT a\nFROM t\nWHERE b = 'x", "syntax error at line 3:11: unterminated string literal"},
	{"SELECT a /* x", "syntax error at line 1:10: unterminated comment"},
	{"SELECT 1e", "syntax error at line 1:8: invalid number '1e': exponent has no digits"},
	{"SELECT #", "syntax error at line 1:8: unexpected character '#'"},
	{"SELECT 1 FROM", "syntax error at line 1:14: expected table name but found end of input"},
	{"SELECT a b c FROM t", "syntax error at line 1:12: expected ';' or end of input but found 'c'"},
	{"SELECT f(a b)", "syntax error at line 1:12: expected ',' or ')' but found 'b'"},
	{"SELECT CAST(a AS foo)", "syntax error at line 1:18: unknown type 'foo'"},
	{"SELECT CAST(a foo)", "syntax error at line 1:15: expected AS but found 'foo'"},
	{"SELECT CASE END", "syntax error at line 1:13: expected WHEN but found 'END'"},
	{"SELECT CASE WHEN 1 THEN 2 FROM", "syntax error at line 1:27: expected WHEN, ELSE or END but found 'FROM'"},
	{"SELECT a IS 5", "syntax error at line 1:13: expected NULL, TRUE or FALSE but found '5'"},
	{"SELECT a NOT b", "syntax error at line 1:10: expected ';' or end of input but found 'NOT'"},
	{"SELECT INTERVAL 5", "syntax error at line 1:18: expected interval unit (such as MINUTES) but found end of input"},
	{"SELECT INTERVAL 5 fortnights", "syntax error at line 1:19: unknown interval unit 'fortnights'"},
	{"SELECT INTERVAL 'abc'", "syntax error at line 1:8: invalid INTERVAL 'abc' (want a number and a unit, such as '5 minutes')"},
	{"SELECT DATE '2026-13-01'", "syntax error at line 1:13: invalid DATE literal '2026-13-01' (want YYYY-MM-DD)"},
	{"SELECT TIMESTAMP 'x'", "syntax error at line 1:18: invalid TIMESTAMP literal 'x' (want YYYY-MM-DD HH:MM:SS)"},
	{"SELECT a FROM t UNION", "syntax error at line 1:22: expected SELECT, VALUES or '(' but found end of input"},
	{"SELECT a FROM t EXCEPT SELEC 1", "syntax error at line 1:24: expected SELECT, VALUES or '(' but found 'SELEC'"},
	{"SELECT X'0G'", "syntax error at line 1:11: invalid hex digit 'G' in binary literal"},
	{"SELECT X'01", "syntax error at line 1:8: unterminated binary literal"},
	{"SELECT trim(LEADING 'x' s)", "syntax error at line 1:25: expected FROM but found 's'"},
	{"SELECT overlay('a' PLACING 'b' 1)", "syntax error at line 1:32: expected FROM but found '1'"},
	{"SELECT * FROM VALUES (1) AS t(a,)", "syntax error at line 1:33: expected column alias but found ')'"},
	{"CREATE TABLE t (a INT,)", "syntax error at line 1:23: expected column name but found ')'"},
	{"CREATE TABLE t (a)", "syntax error at line 1:18: expected a type but found ')'"},
	{"CREATE TABLE t (a INT) USING json USING csv", "syntax error at line 1:35: duplicate USING clause"},
	{"CREATE TABLE t (a DECIMAL(40,2))", "syntax error at line 1:26: DECIMAL precision must be between 1 and 38, got 40"},
	{"CREATE TABLE t (a MAP<INT, STRING>)", "syntax error at line 1:23: MAP keys must be STRING, not INT"},
	{"CREATE VIEWS v", "syntax error at line 1:8: expected TABLE, EXTERNAL TABLE, DATABASE, VIEW or MATERIALIZED VIEW but found 'VIEWS'"},
	{"DROP INDEX x", "syntax error at line 1:6: expected TABLE, DATABASE, VIEW or MATERIALIZED VIEW but found 'INDEX'"},
	{"SHOW FOO", "syntax error at line 1:6: expected TABLES, DATABASES, TBLPROPERTIES, COLUMNS, PARTITIONS, FUNCTIONS, VIEWS, STREAMS, SETTINGS, MATERIALIZED VIEWS or CREATE TABLE but found 'FOO'"},
	{"INSERT t SELECT 1", "syntax error at line 1:8: expected INTO, OVERWRITE or STREAM but found 't'"},
	{"FOO BAR", "syntax error at line 1:1: expected a statement but found 'FOO'"},
	{"SELECT 1 SELECT 2", "syntax error at line 1:10: expected ';' or end of input but found 'SELECT'"},
	{"SELECT 1; SELECT", "syntax error at line 1:17: expected expression but found end of input"},
	{"SELECT a FROM t ORDER BY a NULLS", "syntax error at line 1:33: expected FIRST or LAST but found end of input"},
	{"SELECT 'a\\'", "syntax error at line 1:8: unterminated string literal"},
	{"SELECT ``", "syntax error at line 1:8: empty quoted identifier"},
	{"SELECT a FROM t JOIN", "syntax error at line 1:21: expected table name but found end of input"},
	{"SELECT a FROM t WHERE x LIKE 'a' ESCAPE", "syntax error at line 1:40: expected expression but found end of input"},
	{"SELECT a RLIKE 'x' ESCAPE 'y'", "syntax error at line 1:20: ESCAPE is not allowed with RLIKE"},
	{"SET", "syntax error at line 1:4: expected setting name but found end of input"},
	{"SET a =", "syntax error at line 1:8: expected option value (a string, number, boolean or name) but found end of input"},
	{"CREATE TABLE t OPTIONS (a 'b' c 'd')", "syntax error at line 1:31: expected ',' or ')' but found 'c'"},
	{"EXPLAIN", "syntax error at line 1:8: expected a statement but found end of input"},
	{"SELECT (1, 2", "syntax error at line 1:13: expected ')' but found end of input"},
	{"SELECT a FROM c.db.t.x", "syntax error at line 1:21: a table name has at most 3 parts (catalog.database.name)"},
	{"VALUES (1), (1, 2)", "syntax error at line 1:13: VALUES rows have different lengths (1 and 2)"},
	{"SELECT count(*", "syntax error at line 1:15: expected ')' but found end of input"},
	{"SELECT EXISTS 1", "syntax error at line 1:15: expected '(' but found '1'"},
	{"SELECT a FROM t GROUP BY ROLLUP (())", "syntax error at line 1:34: () is only allowed in GROUPING SETS"},
	{"SELECT a FROM t GROUP BY ROLLUP (a) WITH CUBE", "syntax error at line 1:37: WITH CUBE cannot be combined with ROLLUP, CUBE or GROUPING SETS"},
	{"SELECT f(a,", "syntax error at line 1:12: expected expression but found end of input"},
	{"SELECT a.", "syntax error at line 1:10: expected field name but found end of input"},
	{"SELECT x::", "syntax error at line 1:11: expected a type but found end of input"},
	{"SELECT 1 FROM t\n  WHERE a = = 1", "syntax error at line 2:13: expected expression but found '='"},
	{"SELECT 'é' FROM t WHERE é = )", "syntax error at line 1:29: expected expression but found ')'"},
	{"SELECT \x01", "syntax error at line 1:8: unexpected character U+0001"},
	{"SELECT \xff", "syntax error at line 1:8: invalid UTF-8 in input"},
	{"SELECT '\xff'", "syntax error at line 1:9: invalid UTF-8 in string literal"},
	{"SELECT a FROM t; DROP", "syntax error at line 1:22: expected TABLE, DATABASE, VIEW or MATERIALIZED VIEW but found end of input"},
	{"CREATE TABLE t (a INT, WATERMARK FOR a AS a, WATERMARK FOR a AS a)", "syntax error at line 1:46: only one WATERMARK is allowed"},
	{"CREATE TABLE t (s STRUCT<a: INT, a: INT>)", "syntax error at line 1:34: duplicate field 'a' in STRUCT"},
	{"CREATE TABLE t (s STRUCT<a: INT b: INT>)", "syntax error at line 1:33: expected ',' or '>' but found 'b'"},
	{"CREATE TABLE t LOCATION s3", "syntax error at line 1:25: expected location string but found 's3'"},
	{"DROP MATERIALIZED v", "syntax error at line 1:19: expected VIEW but found 'v'"},
	{"STOP s", "syntax error at line 1:6: expected STREAM but found 's'"},
	{"INSERT STREAM INTO t SELECT 1 WITH name = 'x'", "syntax error at line 1:36: expected '(' but found 'name'"},
}

func TestErrors(t *testing.T) {
	for _, tc := range errorCases {
		_, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want %s", tc.in, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Parse(%q)\n  got %s\n want %s", tc.in, err, tc.want)
		}
		var se *Error
		if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 {
			t.Errorf("Parse(%q): error %#v is not a positioned *Error", tc.in, err)
		}
	}
}

func TestParseOneAndExprErrors(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"empty", func() error { _, err := ParseOne("  ;  "); return err }, "syntax error at line 1:6: expected a statement but found end of input"},
		{"two statements", func() error { _, err := ParseOne("SELECT 1; SELECT 2"); return err }, "syntax error at line 1:11: expected end of input but found 'SELECT'"},
		{"expr trailing", func() error { _, err := ParseExpr("a + b c"); return err }, "syntax error at line 1:7: expected end of expression but found 'c'"},
		{"expr empty", func() error { _, err := ParseExpr(""); return err }, "syntax error at line 1:1: expected expression but found end of input"},
		{"type trailing", func() error { _, err := ParseType("INT INT"); return err }, "syntax error at line 1:5: expected end of type but found 'INT'"},
		{"type unknown", func() error { _, err := ParseType("BLOB"); return err }, "syntax error at line 1:1: unknown type 'BLOB'"},
		{"type unclosed", func() error { _, err := ParseType("ARRAY<INT"); return err }, "syntax error at line 1:10: expected '>' but found end of input"},
		{"decimal scale", func() error { _, err := ParseType("DECIMAL(5, 6)"); return err }, "syntax error at line 1:8: DECIMAL scale 6 is larger than precision 5"},
		{"varchar arg", func() error { _, err := ParseType("VARCHAR(x)"); return err }, "syntax error at line 1:9: expected an integer but found 'x'"},
	}
	for _, tc := range tests {
		err := tc.run()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
}

// TestDeepNesting checks that hostile nesting is an error, not a stack
// overflow, and that reasonable nesting still parses.
func TestDeepNesting(t *testing.T) {
	deep := []string{
		"SELECT " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000),
		"SELECT " + strings.Repeat("- ", 10000) + "1",
		"SELECT " + strings.Repeat("NOT ", 10000) + "TRUE",
		"SELECT " + strings.Repeat("f(", 10000) + "1" + strings.Repeat(")", 10000),
		"SELECT * FROM " + strings.Repeat("(SELECT * FROM ", 5000) + "t" + strings.Repeat(")", 5000),
		"SELECT * FROM " + strings.Repeat("(", 10000) + "t" + strings.Repeat(")", 10000),
		"SELECT CAST(x AS " + strings.Repeat("ARRAY<", 10000) + "INT" + strings.Repeat(">", 10000) + ")",
		strings.Repeat("EXPLAIN ", 10000) + "SELECT 1",
		"SELECT " + strings.Repeat("CASE WHEN ", 10000),
	}
	for _, in := range deep {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("Parse(%.40q...): got %v, want a nesting error", in, err)
		}
	}
	ok := "SELECT " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200)
	if _, err := Parse(ok); err != nil {
		t.Errorf("200 nested parentheses: %v", err)
	}
	long := "SELECT 1" + strings.Repeat(" + 1", 100000)
	s, err := ParseOne(long)
	if err != nil {
		t.Fatalf("long flat expression: %v", err)
	}
	if got := s.String(); got != long {
		t.Errorf("long flat expression did not round-trip")
	}
}
