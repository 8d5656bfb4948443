package sql

import "testing"

// TestSubqueryAndGroupingRoundTrip checks subqueries, FILTER and the
// GROUP BY forms print canonically and parse back to the same text.
func TestSubqueryAndGroupingRoundTrip(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT (SELECT max(b) FROM u) AS m FROM t", ""},
		{"SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE u.c = t.c)", ""},
		{"SELECT a FROM t WHERE a not in (select b from u)", "SELECT a FROM t WHERE a NOT IN (SELECT b FROM u)"},
		{"SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a) AND NOT EXISTS (SELECT 1 FROM v)", ""},
		{"SELECT a FROM t WHERE a > (SELECT avg(a) FROM t) + 1", ""},
		{"SELECT a FROM t WHERE (a) IN (SELECT b FROM u)", "SELECT a FROM t WHERE a IN (SELECT b FROM u)"},
		{"SELECT count(*) FILTER (WHERE a > 1), sum(DISTINCT b) FILTER (WHERE c) FROM t", ""},
		{"SELECT a, count(*) FROM t GROUP BY ALL", ""},
		{"SELECT a, b, count(*) FROM t GROUP BY ROLLUP (a, b)", ""},
		{"SELECT a, b FROM t GROUP BY cube(a, (b, c))", "SELECT a, b FROM t GROUP BY CUBE (a, (b, c))"},
		{"SELECT a, b FROM t GROUP BY GROUPING SETS ((a, b), a, ())", "SELECT a, b FROM t GROUP BY GROUPING SETS ((a, b), (a), ())"},
		{"SELECT a, b FROM t GROUP BY a, b WITH ROLLUP", "SELECT a, b FROM t GROUP BY ROLLUP (a, b)"},
		{"SELECT a FROM t GROUP BY a, ROLLUP ((a + 1) * 2)", "SELECT a FROM t GROUP BY a, ROLLUP ((a + 1) * 2)"},
		{"SELECT grouping(a), grouping_id() FROM t GROUP BY CUBE (a)", ""},
		{"SELECT a FROM t WHERE a > ALL (SELECT b FROM u) AND a = ANY (SELECT b FROM u)", ""},
		{"SELECT a <= some (select b from u), a <> all (SELECT b FROM u) FROM t", "SELECT a <= ANY (SELECT b FROM u), a <> ALL (SELECT b FROM u) FROM t"},
		{"SELECT a + 1 >= ANY (SELECT b FROM u) OR a IS NULL FROM t", ""},
		{"SELECT NOT a < ALL (SELECT b FROM u) FROM t", ""},
		// any(...) without a query is the aggregate function.
		{"SELECT any(a > 1), a = any(b) FROM t", ""},
	}
	for _, tc := range cases {
		want := tc.want
		if want == "" {
			want = tc.in
		}
		s, err := ParseOne(tc.in)
		if err != nil {
			t.Errorf("ParseOne(%q): %v", tc.in, err)
			continue
		}
		if got := s.String(); got != want {
			t.Errorf("ParseOne(%q).String()\n got %s\nwant %s", tc.in, got, want)
			continue
		}
		again, err := ParseOne(want)
		if err != nil {
			t.Errorf("re-parsing %q: %v", want, err)
			continue
		}
		if got := again.String(); got != want {
			t.Errorf("canonical form is not stable:\n  %s\n  %s", want, got)
		}
	}
}
