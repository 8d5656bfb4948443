package sql

import "testing"

// queryClauses lists the Spark query forms of issue 29 (table-valued
// functions, LATERAL VIEW, semi and anti joins, CTE column lists, ORDER
// BY ALL) with their canonical text ("" means already canonical).
var queryClauses = []struct{ in, want string }{
	{"SELECT * FROM range(3)", ""},
	{"SELECT * FROM range(0, 10, 2, 4) AS r(x)", ""},
	{"SELECT id FROM range(5) r", "SELECT id FROM range(5) AS r"},
	{"SELECT * FROM explode(array(1, 2)) AS e(v)", ""},
	{"SELECT * FROM posexplode_outer(a), inline(b) AS s", "SELECT * FROM posexplode_outer(a) CROSS JOIN inline(b) AS s"},
	{"SELECT * FROM stack(2, 1, 'a', 2, 'b') AS s(n, c)", ""},
	{"SELECT k, v FROM t, LATERAL explode(t.arr) AS e(v)", "SELECT k, v FROM t CROSS JOIN LATERAL explode(t.arr) AS e(v)"},
	{"SELECT k, v FROM t JOIN LATERAL explode(arr) e(v)", "SELECT k, v FROM t INNER JOIN LATERAL explode(arr) AS e(v)"},
	{"SELECT * FROM t LATERAL VIEW explode(arr) e AS v", ""},
	{"SELECT * FROM t lateral view outer explode(m) e k, v", "SELECT * FROM t LATERAL VIEW OUTER explode(m) e AS k, v"},
	{"SELECT * FROM t x, u LATERAL VIEW explode(a) e AS v LATERAL VIEW posexplode(v.b) f AS p, w WHERE p > 0",
		"SELECT * FROM t AS x CROSS JOIN u LATERAL VIEW explode(a) e AS v LATERAL VIEW posexplode(v.b) f AS p, w WHERE p > 0"},
	{"SELECT * FROM (t LATERAL VIEW explode(a) e AS v) INNER JOIN (u LATERAL VIEW explode(b) f AS w) ON v = w", ""},
	{"SELECT * FROM a LEFT SEMI JOIN b ON a.id = b.id", ""},
	{"SELECT * FROM a LEFT ANTI JOIN b USING (id)", ""},
	{"SELECT * FROM a SEMI JOIN b ON a.id = b.id ANTI JOIN c ON a.id = c.id", "SELECT * FROM a LEFT SEMI JOIN b ON a.id = b.id LEFT ANTI JOIN c ON a.id = c.id"},
	{"SELECT * FROM a LEFT SEMI JOIN b", ""},
	{"SELECT * FROM a NATURAL JOIN b NATURAL LEFT OUTER JOIN c", "SELECT * FROM a NATURAL INNER JOIN b NATURAL LEFT JOIN c"},
	{"SELECT a FROM t ORDER BY a LIMIT ALL", "SELECT a FROM t ORDER BY a"},
	{"SELECT semi, anti, lateral FROM t", ""},
	{"WITH c(x, y) AS (SELECT 1, 2) SELECT * FROM c", ""},
	{"WITH c (x) AS (SELECT 1), d AS (SELECT x FROM c) SELECT * FROM d", "WITH c(x) AS (SELECT 1), d AS (SELECT x FROM c) SELECT * FROM d"},
	{"SELECT a, b FROM t ORDER BY ALL", ""},
	{"SELECT a, b FROM t ORDER BY ALL ASC NULLS LAST LIMIT 3", "SELECT a, b FROM t ORDER BY ALL NULLS LAST LIMIT 3"},
	{"SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY ALL DESC", ""},
}

func TestQueryClauses(t *testing.T) { checkRoundTrips(t, queryClauses) }

// TestQueryClauseErrors pins the new forms' error messages and positions.
func TestQueryClauseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT * FROM LATERAL (SELECT 1)", "syntax error at line 1:15: LATERAL subqueries are not supported; LATERAL takes a generator call (explode, inline, ...)"},
		{"SELECT * FROM t LATERAL VIEW explode(a)", "syntax error at line 1:40: expected a table name after LATERAL VIEW explode(...) but found end of input"},
		{"SELECT * FROM t LATERAL VIEW x", "syntax error at line 1:30: expected a generator call after LATERAL VIEW but found 'x'"},
		{"SELECT * FROM t LATERAL VIEW explode(a) e AS", "syntax error at line 1:45: expected column name but found end of input"},
		{"SELECT * FROM range(3) OVER ()", "syntax error at line 1:15: expected a table-valued function call in FROM, got range(3) OVER ()"},
		{"SELECT a FROM t ORDER BY ALL NULLS", "syntax error at line 1:35: expected FIRST or LAST but found end of input"},
		{"WITH c(x AS (SELECT 1) SELECT * FROM c", "syntax error at line 1:10: expected ')' but found 'AS'"},
	} {
		_, err := ParseOne(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseOne(%q) error\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}
