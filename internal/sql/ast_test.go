package sql

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// paren prints an expression fully parenthesized, to check the tree shape
// independently of the canonical printer's precedence rules.
func paren(e Expr) string {
	switch e := e.(type) {
	case *Binary:
		return "(" + paren(e.L) + " " + e.Op + " " + paren(e.R) + ")"
	case *Unary:
		return "(" + e.Op + " " + paren(e.X) + ")"
	case *Is:
		return "(" + paren(e.X) + " IS " + not(e.Not) + []string{"NULL", "TRUE", "FALSE"}[e.Is] + ")"
	case *Between:
		return "(" + paren(e.X) + " " + not(e.Not) + "BETWEEN " + paren(e.Lo) + " AND " + paren(e.Hi) + ")"
	case *Like:
		return "(" + paren(e.X) + " " + not(e.Not) + e.Op + " " + paren(e.Pattern) + ")"
	case *InList:
		return "(" + paren(e.X) + " " + not(e.Not) + "IN ...)"
	case *Subscript:
		return "(" + paren(e.X) + "[" + paren(e.Index) + "])"
	case *FieldAccess:
		return "(" + paren(e.X) + "." + e.Name + ")"
	case *Cast:
		return "(" + paren(e.X) + "::" + types.SQLName(e.Type) + ")"
	}
	return e.String()
}

func TestPrecedence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1 + 2 * 3", "(1 + (2 * 3))"},
		{"1 - 2 - 3", "((1 - 2) - 3)"},
		{"a OR b AND c", "(a OR (b AND c))"},
		{"NOT a AND b", "((NOT a) AND b)"},
		{"NOT a = b", "(NOT (a = b))"},
		{"a = 1 OR NOT b IS NULL", "((a = 1) OR (NOT (b IS NULL)))"},
		{"a || b = c || d", "((a || b) = (c || d))"},
		{"a || b + c", "(a || (b + c))"},
		{"-a * b", "((- a) * b)"},
		{"-a[1]", "(- (a[1]))"},
		{"-x::int", "(- (x::INT))"},
		{"a + b BETWEEN c AND d + e AND f", "(((a + b) BETWEEN c AND (d + e)) AND f)"},
		{"a NOT LIKE b || 'x'", "(a NOT LIKE (b || 'x'))"},
		{"x IN (1) = TRUE", "((x IN ...) = TRUE)"},
		{"a.b.c[1].d", "((a.b.c[1]).d)"},
		{"f(x)[2]", "(f(x)[2])"},
		{"a * b % c / d", "(((a * b) % c) / d)"},
		{"a < b = c", "((a < b) = c)"},
	}
	for _, tc := range tests {
		e, err := ParseExpr(tc.in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tc.in, err)
			continue
		}
		if got := paren(e); got != tc.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestExprNodes(t *testing.T) {
	e, err := ParseExpr("t.geo.`City Name`")
	if err != nil {
		t.Fatal(err)
	}
	if ref, ok := e.(*ColumnRef); !ok || !reflect.DeepEqual(ref.Parts, []string{"t", "geo", "City Name"}) {
		t.Errorf("dotted name: got %#v", e)
	}
	e, _ = ParseExpr("count(DISTINCT UserId)")
	if c := e.(*Call); c.Name != "count" || !c.Distinct || len(c.Args) != 1 {
		t.Errorf("count(DISTINCT): got %#v", c)
	}
	e, _ = ParseExpr("COUNT(*)")
	if c := e.(*Call); c.Name != "COUNT" || !c.Star || c.Args != nil {
		t.Errorf("COUNT(*): got %#v", c)
	}
	e, _ = ParseExpr("INTERVAL 1 HOUR 30 MINUTES")
	if l := e.(*Literal); l.Kind != LitInterval || l.Value != "1 HOUR 30 MINUTES" ||
		l.Interval != (arrow.MonthDayNanoInterval{Nanoseconds: 5400e9}) {
		t.Errorf("interval: got %#v", l)
	}
	e, _ = ParseExpr("INTERVAL '2' DAYS")
	if l := e.(*Literal); l.Interval != (arrow.MonthDayNanoInterval{Days: 2}) {
		t.Errorf("interval days: got %#v", l)
	}
	e, _ = ParseExpr("CASE x WHEN 1 THEN 'a' END")
	if c := e.(*Case); c.Operand == nil || len(c.Whens) != 1 || c.Else != nil {
		t.Errorf("CASE: got %#v", c)
	}
	e, _ = ParseExpr("TRY_CAST(s AS DECIMAL(12, 2))")
	if c := e.(*Cast); !c.Try || !arrow.TypeEqual(c.Type, types.Decimal(12, 2)) {
		t.Errorf("TRY_CAST: got %#v", c)
	}
	e, _ = ParseExpr("name ILIKE 'a!%' ESCAPE '!'")
	if l := e.(*Like); l.Op != OpILike || l.Escape == nil {
		t.Errorf("ILIKE: got %#v", l)
	}
	for in, kind := range map[string]LitKind{"42": LitInteger, "4.2": LitDecimal, "4e2": LitFloat, "'s'": LitString,
		"NULL": LitNull, "true": LitBool, "DATE '2026-01-01'": LitDate, "TIMESTAMP '2026-01-01 10:00:00'": LitTimestamp} {
		e, err := ParseExpr(in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", in, err)
			continue
		}
		if l, ok := e.(*Literal); !ok || l.Kind != kind {
			t.Errorf("ParseExpr(%q) = %#v, want a %s literal", in, e, kind)
		}
	}
}

func TestPositionsAndText(t *testing.T) {
	script := "-- leading comment\nSELECT a,\n       b + 1 AS c\nFROM t;\n\n  DROP TABLE x ;"
	stmts, err := Parse(script)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 2 {
		t.Fatalf("got %d statements", len(stmts))
	}
	if got := stmts[0].Text(); got != "SELECT a,\n       b + 1 AS c\nFROM t" {
		t.Errorf("Text() = %q", got)
	}
	if got := stmts[1].Text(); got != "DROP TABLE x" {
		t.Errorf("Text() = %q", got)
	}
	if got := stmts[0].Pos(); got != (Pos{2, 1}) {
		t.Errorf("first statement at %v", got)
	}
	if got := stmts[1].Pos(); got != (Pos{6, 3}) {
		t.Errorf("second statement at %v", got)
	}
	sel := stmts[0].(*SelectStmt).Query.Body.(*Select)
	item := sel.Items[1]
	if item.Pos() != (Pos{3, 8}) || item.Alias != "c" {
		t.Errorf("item at %v alias %q", item.Pos(), item.Alias)
	}
	if b := item.Expr.(*Binary); b.Pos() != (Pos{3, 10}) || b.L.Pos() != (Pos{3, 8}) || b.R.Pos() != (Pos{3, 12}) {
		t.Errorf("binary at %v, operands at %v %v", b.Pos(), b.L.Pos(), b.R.Pos())
	}
	if tn := sel.From.(*TableName); tn.Pos() != (Pos{4, 6}) || tn.Name != "t" {
		t.Errorf("table at %v", tn.Pos())
	}
	// Columns count characters, not bytes.
	e, _ := ParseExpr("'héllo' || x")
	if got := e.(*Binary).R.Pos(); got != (Pos{1, 12}) {
		t.Errorf("after multi-byte text: %v", got)
	}
	ex := mustParse(t, "EXPLAIN  SELECT 1").(*Explain)
	if ex.Stmt.Text() != "SELECT 1" || ex.Text() != "EXPLAIN  SELECT 1" || ex.Stmt.Pos() != (Pos{1, 10}) {
		t.Errorf("EXPLAIN inner %q at %v", ex.Stmt.Text(), ex.Stmt.Pos())
	}
}

func mustParse(t *testing.T, s string) Statement {
	t.Helper()
	st, err := ParseOne(s)
	if err != nil {
		t.Fatalf("ParseOne(%q): %v", s, err)
	}
	return st
}

func TestStatementFields(t *testing.T) {
	ct := mustParse(t, "CREATE TABLE IF NOT EXISTS logs (ts TIMESTAMP NOT NULL COMMENT 'event time', n INT, "+
		"WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE) USING json LOCATION 's3://b/p/' PARTITIONED BY (n, ts) "+
		"OPTIONS (compression 'gzip', `fs.endpoint` = 'http://x', max_files 10, strict true, mode append) COMMENT 'c'").(*CreateTable)
	if !ct.IfNotExists || ct.Name != "logs" || ct.Using != "json" || ct.Location != "s3://b/p/" || ct.Comment != "c" {
		t.Errorf("CREATE TABLE header: %+v", ct)
	}
	if len(ct.Columns) != 2 || !ct.Columns[0].NotNull || ct.Columns[0].Comment != "event time" ||
		!arrow.TypeEqual(ct.Columns[0].Type, types.Timestamp) || !arrow.TypeEqual(ct.Columns[1].Type, types.Int) {
		t.Errorf("columns: %+v", ct.Columns)
	}
	if ct.Watermark == nil || ct.Watermark.Column != "ts" || ct.Watermark.Expr.String() != "ts - INTERVAL '1 MINUTE'" {
		t.Errorf("watermark: %+v", ct.Watermark)
	}
	if !reflect.DeepEqual(ct.PartitionedBy, []string{"n", "ts"}) {
		t.Errorf("partitioned by %v", ct.PartitionedBy)
	}
	type kv struct {
		key  string
		kind LitKind
		val  string
	}
	var got []kv
	for _, o := range ct.Options {
		got = append(got, kv{o.Key, o.Value.Kind, o.Value.Value})
	}
	want := []kv{{"compression", LitString, "gzip"}, {"fs.endpoint", LitString, "http://x"},
		{"max_files", LitInteger, "10"}, {"strict", LitBool, "TRUE"}, {"mode", LitIdent, "append"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("options %v, want %v", got, want)
	}
	if v, ok := ct.Options.Get("FS.Endpoint"); !ok || v.Value != "http://x" {
		t.Errorf("Options.Get is not case-insensitive: %v %v", v, ok)
	}
	if _, ok := ct.Options.Get("nope"); ok {
		t.Errorf("Options.Get found a missing key")
	}

	ctas := mustParse(t, "CREATE TABLE t2 USING index AS SELECT * FROM t").(*CreateTable)
	if ctas.As == nil || ctas.Columns != nil {
		t.Errorf("CTAS: %+v", ctas)
	}
	ins := mustParse(t, "INSERT INTO t (a, b) VALUES (1, 2), (3, 4)").(*Insert)
	if v, ok := ins.Query.Body.(*Values); !ok || len(v.Rows) != 2 || !reflect.DeepEqual(ins.Columns, []string{"a", "b"}) {
		t.Errorf("INSERT VALUES: %+v", ins)
	}
	is := mustParse(t, "INSERT STREAM INTO errors SELECT * FROM logs WITH (name = 'f', trigger = '10 seconds', output_mode = 'update')").(*InsertStream)
	if is.Table != "errors" || len(is.With) != 3 || is.With[1].Key != "trigger" || is.With[1].Value.Value != "10 seconds" {
		t.Errorf("INSERT STREAM: %+v", is)
	}
	mv := mustParse(t, "CREATE MATERIALIZED VIEW v AS SELECT 1 WITH (auto_refresh = true)").(*CreateMaterializedView)
	if v, _ := mv.With.Get("auto_refresh"); v == nil || v.Kind != LitBool || v.Value != "TRUE" {
		t.Errorf("MV options: %+v", mv.With)
	}
	set := mustParse(t, "SET s3.endpoint 'http://minio:9000'").(*Set)
	if set.Key != "s3.endpoint" || set.Value.Kind != LitString {
		t.Errorf("SET: %+v", set)
	}
	q := mustParse(t, "SELECT a FROM t ORDER BY a DESC NULLS FIRST, b LIMIT 5 OFFSET 2").(*SelectStmt).Query
	if len(q.OrderBy) != 2 || !q.OrderBy[0].Desc || q.OrderBy[0].NullsFirst == nil || !*q.OrderBy[0].NullsFirst ||
		q.OrderBy[1].NullsFirst != nil || q.Limit.String() != "5" || q.Offset.String() != "2" {
		t.Errorf("ORDER BY/LIMIT: %+v", q)
	}
	j := mustParse(t, "SELECT * FROM a LEFT JOIN b USING (id) JOIN c ON c.k = a.k").(*SelectStmt).Query.Body.(*Select).From.(*Join)
	if j.Kind != JoinInner || j.On == nil {
		t.Errorf("outer join: %+v", j)
	}
	if l := j.L.(*Join); l.Kind != JoinLeft || !reflect.DeepEqual(l.Using, []string{"id"}) {
		t.Errorf("inner join: %+v", l)
	}
	u := mustParse(t, "SELECT 1 UNION ALL SELECT 2 UNION SELECT 3").(*SelectStmt).Query.Body.(*SetOp)
	if u.All || !u.L.(*SetOp).All {
		t.Errorf("UNION associativity: %+v", u)
	}
	ex := mustParse(t, "EXPLAIN ANALYZE SELECT 1").(*Explain)
	if ex.Mode != ExplainAnalyze {
		t.Errorf("EXPLAIN mode %q", ex.Mode)
	}
}

func TestSecretsNotPrinted(t *testing.T) {
	tests := []struct{ in, want string }{
		{"CREATE TABLE t USING opensearch OPTIONS (endpoint 'https://h', password 'hunter2', `aws.secret_access_key` 'AKS', session_token = 'tok', port 9200)",
			"CREATE TABLE t USING opensearch OPTIONS (endpoint = 'https://h', password = '***', aws.secret_access_key = '***', session_token = '***', port = 9200)"},
		{"SET s3.secret_key = 'abc'", "SET s3.secret_key = '***'"},
		{"SET s3.access_key_id 'AKIA'", "SET s3.access_key_id = '***'"},
	}
	for _, tc := range tests {
		st := mustParse(t, tc.in)
		if got := st.String(); got != tc.want {
			t.Errorf("String()\n got %s\nwant %s", got, tc.want)
		}
	}
	// The tree itself keeps the value for the engine to use.
	ct := mustParse(t, "CREATE TABLE t OPTIONS (password 'hunter2')").(*CreateTable)
	if v, _ := ct.Options.Get("password"); v.Value != "hunter2" {
		t.Errorf("value lost: %v", v)
	}
	_, err := Parse("CREATE TABLE t OPTIONS (password 'hunter2' 'hunter3')")
	if err == nil || err.Error() != "syntax error at line 1:44: expected ',' or ')' but found a string literal" {
		t.Errorf("error echoes a string: %v", err)
	}
}
