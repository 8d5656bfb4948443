package ppl

import (
	"strings"
	"testing"

	"sluice/internal/sql"
)

// fakeColumns answers Columns from the tables t (a, b, c) and u (b, d)
// and from the shape of the query: enough to translate without an engine.
func fakeColumns(q *sql.Query) ([]string, error) {
	tables := map[string][]string{"t": {"a", "b", "c"}, "u": {"b", "d"}}
	var cols func(q *sql.Query) []string
	cols = func(q *sql.Query) []string {
		sel := q.Body.(*sql.Select)
		var from []string
		switch f := sel.From.(type) {
		case *sql.TableName:
			from = tables[f.Name]
		case *sql.SubqueryTable:
			from = cols(f.Query)
		}
		var out []string
		for _, it := range sel.Items {
			switch {
			case it.Alias != "":
				out = append(out, it.Alias)
			default:
				if _, ok := it.Expr.(*sql.Star); ok {
					out = append(out, from...)
				} else if r, ok := it.Expr.(*sql.ColumnRef); ok {
					out = append(out, r.Parts[len(r.Parts)-1])
				}
			}
		}
		return out
	}
	return cols(q), nil
}

func translate(t *testing.T, text string) string {
	t.Helper()
	pl, err := Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	q, err := pl.Translate(fakeColumns)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return q.String()
}

// TestTranslate checks the SQL each command becomes (the slt files under
// testdata/ppl check the rows).
func TestTranslate(t *testing.T) {
	tests := []struct{ ppl, sql string }{
		{"source=t", "SELECT * FROM t"},
		{"search source = t a > 1 b < 'x'", "SELECT * FROM t WHERE a > 1 AND b < 'x'"},
		{"source=t | where a == 1 or not b != 'x'", "SELECT * FROM t WHERE a = 1 OR NOT b <> 'x'"},
		{"source=t | fields a, c", "SELECT a, c FROM t"},
		{"source=t | fields - b", "SELECT _p1.a AS a, _p1.c AS c FROM (SELECT * FROM t) AS _p1"},
		{"source=t | eval a = a + 1, d = a * 2", "SELECT _p1.a AS a, _p1.b AS b, _p1.c AS c, a * 2 AS d FROM (SELECT a + 1 AS a, b AS b, c AS c FROM t) AS _p1"},
		{"source=t | sort - a, b | head 5 from 2", "SELECT * FROM t ORDER BY a DESC, b LIMIT 5 OFFSET 2"},
		{"source=t | head", "SELECT * FROM t LIMIT 10"},
		{"source=t | head 5 | head 2", "SELECT * FROM (SELECT * FROM t LIMIT 5) AS _p1 LIMIT 2"},
		{"source=t | head 5 | where a > 1", "SELECT * FROM (SELECT * FROM t LIMIT 5) AS _p1 WHERE a > 1"},
		{"source=t | stats count() as n by b | sort - n | head 1", "SELECT _a0 AS n, _g0 AS b FROM (SELECT count(*) AS _a0, b AS _g0 FROM t GROUP BY b) AS _p1 ORDER BY n DESC LIMIT 1"},
		{"source=t | rename a as x", "SELECT _p1.a AS x, _p1.b AS b, _p1.c AS c FROM (SELECT * FROM t) AS _p1"},
		{"source=t | stats count() by b", "SELECT _a0 AS `count()`, _g0 AS b FROM (SELECT count(*) AS _a0, b AS _g0 FROM t GROUP BY b) AS _p1"},
		{"source=t | stats dc(a) as n, avg(c) by span(a, 10) as s", "SELECT _a0 AS n, _a1 AS `avg(c)`, _g0 AS s FROM (SELECT count(DISTINCT a) AS _a0, avg(c) AS _a1, floor(a / 10) * 10 AS _g0 FROM t GROUP BY floor(a / 10) * 10) AS _p1"},
		{"source=t | stats count() by span(c, 1h)", "SELECT _a0 AS `count()`, _g0.start AS `span(c, 1h)` FROM (SELECT count(*) AS _a0, tumble(c, '1 hours') AS _g0 FROM t GROUP BY tumble(c, '1 hours')) AS _p1"},
		{"source=t | stats count() by span(c, 1M)", "SELECT _a0 AS `count()`, _g0 AS `span(c, 1M)` FROM (SELECT count(*) AS _a0, date_trunc('MONTH', c) AS _g0 FROM t GROUP BY date_trunc('MONTH', c)) AS _p1"},
		{"source=t | dedup 2 a, b", "SELECT _p1.a AS a, _p1.b AS b, _p1.c AS c FROM (SELECT * FROM t) AS _p1 WHERE a IS NOT NULL AND b IS NOT NULL QUALIFY row_number() OVER (PARTITION BY a, b ORDER BY a, b) <= 2"},
		{"source=t | eventstats avg(a) as m by b", "SELECT a AS a, b AS b, c AS c, avg(a) OVER (PARTITION BY b) AS m FROM t"},
		{"source=t | rename *c as x*", "SELECT _p1.a AS a, _p1.b AS b, _p1.c AS x FROM (SELECT * FROM t) AS _p1"},
		{"source=t | rename a as b", "SELECT _p1.a AS b, _p1.c AS c FROM (SELECT * FROM t) AS _p1"},
		{"source=t | fillnull with 0 in a, c", "SELECT coalesce(a, 0) AS a, b AS b, coalesce(c, 0) AS c FROM t"},
		{"source=t | fillnull using b = 'x'", "SELECT a AS a, coalesce(b, 'x') AS b, c AS c FROM t"},
		{"source=t | patterns b", "SELECT a AS a, b AS b, c AS c, regexp_replace(b, '[a-zA-Z0-9]+', '<*>') AS patterns_field FROM t"},
		{"source=t | parse b '(?<x>\\d+)-(?<y>.*)'", `SELECT a AS a, b AS b, c AS c, regexp_extract(b, '^(?:(?<x>\\d+)-(?<y>.*))$', 1) AS x, regexp_extract(b, '^(?:(?<x>\\d+)-(?<y>.*))$', 2) AS y FROM t`},
		{"source=t | where isnull(a) and isnotnull(b) and like(b, 'x%')", "SELECT * FROM t WHERE a IS NULL AND b IS NOT NULL AND b LIKE 'x%'"},
		{"source=t | eval x = if(a > 1, 'y', 'n'), y = case(a = 1, 'one', a = 2, 'two' else 'many'), z = ifnull(a, 0), w = cast(a as string)",
			"SELECT _p3.a AS a, _p3.b AS b, _p3.c AS c, _p3.x AS x, _p3.y AS y, _p3.z AS z, CAST(a AS STRING) AS w FROM (SELECT _p2.a AS a, _p2.b AS b, _p2.c AS c, _p2.x AS x, _p2.y AS y, coalesce(a, 0) AS z FROM (SELECT _p1.a AS a, _p1.b AS b, _p1.c AS c, _p1.x AS x, CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END AS y FROM (SELECT a AS a, b AS b, c AS c, if(a > 1, 'y', 'n') AS x FROM t) AS _p1) AS _p2) AS _p3"},
		{"source=t | join left = l right = r on l.b = r.b u | fields l.b, d",
			"SELECT `l.b` AS `l.b`, d FROM (SELECT l.a AS a, l.b AS `l.b`, l.c AS c, r.b AS `r.b`, r.d AS d FROM (SELECT * FROM t) AS l INNER JOIN u AS r ON l.b = r.b) AS _p1"},
		{"source=t | join b u", "SELECT t.b AS b, t.a AS a, t.c AS c, u.d AS d FROM (SELECT * FROM t) AS t INNER JOIN u AS u ON t.b = u.b"},
		{"source=t | lookup u b replace d as c", "SELECT _p1.a AS a, _p1.b AS b, _lk1.d AS c FROM (SELECT * FROM t) AS _p1 LEFT JOIN u AS _lk1 ON _p1.b = _lk1.b"},
		{"source=t | lookup u b append d as c", "SELECT _p1.a AS a, _p1.b AS b, coalesce(_p1.c, _lk1.d) AS c FROM (SELECT * FROM t) AS _p1 LEFT JOIN u AS _lk1 ON _p1.b = _lk1.b"},
	}
	for _, tt := range tests {
		if got := translate(t, tt.ppl); got != tt.sql {
			t.Errorf("%s\n got: %s\nwant: %s", tt.ppl, got, tt.sql)
		}
	}
}

// TestTranslateTop checks the shape of top and rare: group, rank, keep
// the first N, count last.
func TestTranslateTop(t *testing.T) {
	got := translate(t, "source=t | top 3 showcount=false a by b")
	for _, want := range []string{"count(*) AS _cnt", "GROUP BY b, a", "QUALIFY row_number() OVER (PARTITION BY _b0 ORDER BY _cnt DESC, _k0) <= 3", "SELECT _b0 AS b, _k0 AS a FROM"} {
		if !strings.Contains(got, want) {
			t.Errorf("top: %s\nwant it to contain %s", got, want)
		}
	}
	if got := translate(t, "source=t | rare a"); !strings.Contains(got, "ORDER BY _cnt, _k0") || !strings.Contains(got, "_cnt AS count") {
		t.Errorf("rare: %s", got)
	}
}

func TestGrok(t *testing.T) {
	// A top-level %{WORD} without a field is a field WORD, once; a
	// pattern's own unnamed references are no fields.
	re, names, casts, err := expandGrok("%{IP:ip} %{WORD} %{NUMBER:n:int} %{WORD}")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "ip,WORD,n" || strings.Join(casts, ",") != ",,BIGINT" || !strings.Contains(re, "(?P<g0>") || !strings.Contains(re, "(?P<g2>") || strings.Contains(re, "(?P<g3>") {
		t.Errorf("%s %v %v", re, names, casts)
	}
	if _, _, _, err := expandGrok("%{NOPE:x}"); err == nil || !strings.Contains(err.Error(), "unknown pattern %{NOPE}") {
		t.Errorf("unknown pattern: %v", err)
	}
}

// TestErrors: every error is one line naming the line:column of the
// offending token.
func TestErrors(t *testing.T) {
	tests := []struct{ ppl, want string }{
		{"", "PPL syntax error at line 1:1: expected source=<table> but found end of query"},
		{"fields a", "PPL syntax error at line 1:1: expected source=<table> but found 'fields'"},
		{"source=t | bogus", `PPL syntax error at line 1:12: unknown command "bogus"`},
		{"source=t\n| where a >", "PPL syntax error at line 2:12: expected an expression but found end of query"},
		{"source=t | where a = 'x", "PPL syntax error at line 1:22: unterminated string"},
		{"source=t | stats count() by", "PPL syntax error at line 1:28: expected an expression but found end of query"},
		{"source=t | head x", "PPL syntax error at line 1:17: expected '|' or end of query but found 'x'"},
		{"source=t | dedup 0 a", "PPL syntax error at line 1:18: dedup count must be greater than 0"},
		{"source=t | sort a | where (a", "PPL syntax error at line 1:29: expected ')' but found end of query"},
		{"source=t | eval x = cast(a as nosuch)", `PPL syntax error at line 1:31: unknown type "nosuch"`},
		{"source=t | top a showcount=maybe", "PPL syntax error at line 1:18: expected '|' or end of query but found 'showcount'"},
		{"source=t | fillnull a", "PPL syntax error at line 1:21: expected with, using or value= but found 'a'"},
		{"source=t | join on a = b", "PPL syntax error at line 1:25: expected a table name but found end of query"},
		{"source=t | where a ~ 1", "PPL syntax error at line 1:20: unexpected character '~'"},
		{"source=t /* open", "PPL syntax error at line 1:10: unterminated comment"},
		{"source=t | patterns method=bogus a", `PPL syntax error at line 1:28: patterns method "bogus": want simple_pattern or brain`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.ppl)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v\nwant %s", tt.ppl, err, tt.want)
		}
	}
	trans := []struct{ ppl, want string }{
		{"source=t | fields - nope", "PPL error at line 1:21: field nope not found"},
		{"source=t | rename nope as x", "PPL error at line 1:19: field nope not found"},
		{"source=t | dedup a consecutive=true", "PPL error at line 1:12: dedup consecutive=true needs a sort before it: the rows' natural order (file and row order) is known only straight after the source and its where"},
		{"source=t | parse b '(?<x>['", "PPL error at line 1:20: pattern: error parsing regexp"},
		{"source=t | parse b 'abc'", "PPL error at line 1:20: pattern has no named group"},
		{"source=t | grok b '%{NOPE:x}'", "PPL error at line 1:19: grok pattern: unknown pattern %{NOPE}"},
		{"source=t | stats count() by span(c, 2M)", "PPL error at line 1:29: span 2M: calendar spans"},
		{"source=t | trendline sma(2, a)", "PPL error at line 1:12: trendline needs a sort (sort <field> before or in it)"},
		{"source=t | stats count() by span(c, 1x)", `PPL error at line 1:29: unknown span unit "x"`},
		{"source=t | lookup u nope", "PPL error at line 1:21: lookup table u has no field nope"},
		{"source=t | semi join on a > 1 u", "PPL error at line 1:27: semi join: want equalities between a left field and a right field (u.f)"},
	}
	for _, tt := range trans {
		pl, err := Parse(tt.ppl)
		if err == nil {
			_, err = pl.Translate(fakeColumns)
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: got %v\nwant %s", tt.ppl, err, tt.want)
		}
	}
}

// TestParseAt: a PPL query inside a SQL statement reports the
// statement's positions.
func TestParseAt(t *testing.T) {
	_, err := ParseAt("source=t\n| bogus", sql.Pos{Line: 3, Col: 10})
	if err == nil || !strings.HasPrefix(err.Error(), `PPL syntax error at line 4:3: unknown command "bogus"`) {
		t.Errorf("got %v", err)
	}
	_, err = ParseAt("source=t | bogus", sql.Pos{Line: 3, Col: 10})
	if err == nil || !strings.HasPrefix(err.Error(), `PPL syntax error at line 3:21:`) {
		t.Errorf("got %v", err)
	}
}

func TestStatement(t *testing.T) {
	st, err := Statement("source=t | where b = 'x'")
	if err != nil {
		t.Fatal(err)
	}
	if st.Text() != `PPL 'source=t | where b = \'x\''` {
		t.Errorf("text %s", st.Text())
	}
	back, err := sql.ParseOne(st.Text())
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := back.(*sql.SelectStmt).Query.Body.(*sql.PPL); !ok || p.Text != "source=t | where b = 'x'" || p.TextAt != (sql.Pos{Line: 1, Col: 6}) {
		t.Errorf("parsed back as %#v", back.(*sql.SelectStmt).Query.Body)
	}
	if !sql.ReadOnly(st) {
		t.Error("a PPL query is not read-only")
	}
}

// TestColumnsAskedOnce: commands that name all their output columns do
// not ask Columns again (each ask binds the query so far).
func TestColumnsAskedOnce(t *testing.T) {
	calls := 0
	pl, err := Parse("source=t | eval x = 1, y = x + 1 | where y > 1 | fields - x | rename y as z | sort z | fillnull with 0")
	if err != nil {
		t.Fatal(err)
	}
	q, err := pl.Translate(func(q *sql.Query) ([]string, error) { calls++; return fakeColumns(q) })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("Columns asked %d times for %s", calls, q)
	}
}

// TestParseLiteral: inside PPL '...', errors point into the statement
// even after ” and backslash escapes in the literal.
func TestParseLiteral(t *testing.T) {
	for stmt, want := range map[string]string{
		"PPL 'source=t | where b = ''x'' | bogus'":               `PPL syntax error at line 1:35: unknown command "bogus"`,
		"SELECT 1;\nPPL 'source=t | where b = ''é\\n'' | bogus'": `PPL syntax error at line 2:37: unknown command "bogus"`,
		"PPL 'source=t\n| parse b ''\\d+'' | bogus'":             `PPL syntax error at line 2:21: unknown command "bogus"`,
		"PPL 'source=t | bogus'":                                 `PPL syntax error at line 1:17: unknown command "bogus"`,
	} {
		sts, err := sql.Parse(stmt)
		if err != nil {
			t.Fatal(err)
		}
		body := sts[len(sts)-1].(*sql.SelectStmt).Query.Body.(*sql.PPL)
		_, err = ParseLiteral(body)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v\nwant %s", stmt, err, want)
		}
	}
}

func TestDescribe(t *testing.T) {
	// describe t [| ...] is a PPL query over t's column metadata.
	for _, q := range []string{"describe logs", "describe logs | head 1"} {
		st, err := Statement(q)
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := st.(*sql.SelectStmt); !ok || s.Text() != "PPL "+sql.QuoteString(q) {
			t.Errorf("%q: got %#v", q, st)
		}
	}
	if _, err := Statement("describe logs x"); err == nil || !strings.HasPrefix(err.Error(), "PPL syntax error at line 1:15: expected '|'") {
		t.Errorf("got %v", err)
	}
}
