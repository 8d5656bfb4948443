package sql

import "testing"

// clauseSyntax lists the Spark query clauses of issue 29 (part 2) with
// their canonical text ("" means already canonical).
var clauseSyntax = []struct{ in, want string }{
	{"SELECT * FROM s DISTRIBUTE BY k", ""},
	{"SELECT * FROM s SORT BY k DESC, v NULLS LAST", ""},
	{"SELECT * FROM s CLUSTER BY k, v LIMIT 3", ""},
	{"SELECT * FROM s DISTRIBUTE BY k, v SORT BY v DESC", ""},
	{"SELECT k FROM s UNION ALL SELECT 5 SORT BY k", ""},
	{"SELECT * FROM s TABLESAMPLE (50 PERCENT)", ""},
	{"SELECT * FROM s TABLESAMPLE (2.5 PERCENT) REPEATABLE (7) AS x", ""},
	{"SELECT x.k FROM db.s TABLESAMPLE (3 ROWS) x", "SELECT x.k FROM db.s TABLESAMPLE (3 ROWS) AS x"},
	{"SELECT * FROM s TABLESAMPLE (BUCKET 1 OUT OF 4) REPEATABLE (3) JOIN t ON true", "SELECT * FROM s TABLESAMPLE (BUCKET 1 OUT OF 4) REPEATABLE (3) INNER JOIN t ON TRUE"},
	{"SELECT tablesample FROM tablesample", ""},
	{"SELECT mask(str => 'AbCD123', upperChar => 'X')", "SELECT mask('AbCD123', 'X')"},
	{"SELECT mask(s, otherChar => '*'), mask(digitChar=>'d', str => s)", "SELECT mask(s, 'X', 'x', 'n', '*'), mask(s, 'X', 'x', 'd')"},
	{"SELECT count_min_sketch(n, 0.5, seed => 1, confidence => 0.5) FROM t", "SELECT count_min_sketch(n, 0.5, 0.5, 1) FROM t"},
	{"SELECT explode(collection => array(1, 2))", "SELECT explode(array(1, 2))"},
	{"SELECT * FROM s PIVOT (sum(n) FOR y IN (2020, 2021))", ""},
	{"SELECT * FROM s PIVOT (sum(n) t, count(n) FOR y IN (2020 a, 2021)) WHERE c IS NOT NULL", "SELECT * FROM s PIVOT (sum(n) AS t, count(n) FOR y IN (2020 AS a, 2021)) WHERE c IS NOT NULL"},
	{"SELECT * FROM s PIVOT (sum(n) FOR (r, y) IN (('eu', 2020) AS e20, ('us', 2021)))", "SELECT * FROM s PIVOT (sum(n) FOR (r, y) IN (struct('eu', 2020) AS e20, struct('us', 2021)))"},
	{"SELECT * FROM s JOIN t ON s.a = t.a PIVOT (max(x) AS m FOR c IN ('a', NULL))", "SELECT * FROM s INNER JOIN t ON s.a = t.a PIVOT (max(x) AS m FOR c IN ('a', NULL))"},
	{"SELECT * FROM w UNPIVOT (v FOR q IN (q1, q2 AS second, w.q3))", ""},
	{"SELECT * FROM w UNPIVOT INCLUDE NULLS (v FOR q IN (q1, q2)) u", "SELECT * FROM w UNPIVOT INCLUDE NULLS (v FOR q IN (q1, q2)) AS u"},
	{"SELECT * FROM w UNPIVOT EXCLUDE NULLS ((a, b) FOR q IN ((q1, q2) AS x, (q2, q3))) AS u", ""},
	{"SELECT * FROM w UNPIVOT (v FOR q IN (q1, q2)) PIVOT (sum(v) FOR q IN ('q1', 'q2'))", ""},
	{"SELECT pivot, unpivot FROM pivot, unpivot", "SELECT pivot, unpivot FROM pivot CROSS JOIN unpivot"},
	{"SELECT sort, cluster, distribute FROM s sort", "SELECT sort, cluster, distribute FROM s AS sort"},
}

func TestClauseSyntax(t *testing.T) { checkRoundTrips(t, clauseSyntax) }

func TestClauseSyntaxErrors(t *testing.T) {
	for _, in := range []string{
		"SELECT * FROM s ORDER BY k SORT BY v",
		"SELECT * FROM s CLUSTER BY k SORT BY v",
		"SELECT * FROM s SORT BY k DISTRIBUTE BY v",
		"SELECT upper(str => 'abc')",
		"SELECT * FROM s PIVOT (sum(n) FOR r IN ('eu')) AS p",
		"SELECT * FROM w UNPIVOT ((a, b) FOR q IN ((q1, q2), q3))",
		"SELECT mask(str => 'a', 'X')",
		"SELECT mask(str => 'a', upperChar => 'X', upperChar => 'Y')",
		"SELECT mask(STR => 'a')",
		"SELECT mask('a', str => 'b')",
		"SELECT mask(upperChar => 'X')",
		"SELECT count_min_sketch(column => n, epsilon => 0.5) FROM t",
	} {
		if _, err := ParseOne(in); err == nil {
			t.Errorf("ParseOne(%q): no error", in)
		}
	}
}
