package sql

import "testing"

// sparkSyntax lists Spark forms added for issue 15 with their canonical
// text ("" means already canonical); each canonical form must re-parse
// to itself.
var sparkSyntax = []struct{ in, want string }{
	// Set operations: INTERSECT binds tighter; MINUS is EXCEPT.
	{"SELECT 1 EXCEPT SELECT 2", ""},
	{"SELECT 1 EXCEPT ALL SELECT 2", ""},
	{"SELECT 1 EXCEPT DISTINCT SELECT 2", "SELECT 1 EXCEPT SELECT 2"},
	{"SELECT 1 MINUS SELECT 2", "SELECT 1 EXCEPT SELECT 2"},
	{"SELECT a FROM t MINUS ALL SELECT a FROM u", "SELECT a FROM t EXCEPT ALL SELECT a FROM u"},
	{"SELECT 1 INTERSECT ALL SELECT 2", ""},
	{"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3", ""},
	{"(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3", ""},
	{"SELECT 1 INTERSECT SELECT 2 EXCEPT SELECT 3 ORDER BY 1 LIMIT 2", ""},
	{"SELECT 1 EXCEPT (SELECT 2 EXCEPT SELECT 3)", ""},
	{"SELECT minus FROM t", ""},
	// Operators.
	{"SELECT a & b | c ^ d, ~a, a << 2, a >> 1, a >>> 1", "SELECT a & b | c ^ d, ~a, a << 2, a >> 1, a >>> 1"},
	{"SELECT (a | b) & c, a + 1 << 2, (a << 2) + 1", ""},
	{"SELECT a div 2, 7 DIV 2 * 3", "SELECT a DIV 2, 7 DIV 2 * 3"},
	{"SELECT div FROM t", ""},
	{"SELECT !a, ! a = b", "SELECT NOT a, NOT a = b"},
	{"SELECT a != b", "SELECT a <> b"},
	{"SELECT a FROM t WHERE a & 1 = 1 AND a BETWEEN 1 | 2 AND 4", "SELECT a FROM t WHERE a & 1 = 1 AND a BETWEEN (1 | 2) AND 4"},
	// Literals, row values, collations.
	{"SELECT X'0a1B', x'', X'123'", "SELECT X'0A1B', X'', X'0123'"},
	{"SELECT (a, b) = (1, 2), (a, b) IN ((1, 2), (3, 4))", "SELECT struct(a, b) = struct(1, 2), struct(a, b) IN (struct(1, 2), struct(3, 4))"},
	{"SELECT name COLLATE UTF8_LCASE = 'A'", ""},
	{"SELECT collate FROM t", ""},
	{"SELECT collate(s, 'UTF8_LCASE'), `collate`(s, 'x')", "SELECT s COLLATE UTF8_LCASE, `collate`(s, 'x')"},
	// Special argument forms.
	{"SELECT position('b' IN s), position('b', s, 2)", "SELECT position('b', s), position('b', s, 2)"},
	{"SELECT trim(BOTH 'x' FROM s), trim(LEADING FROM s), trim(TRAILING 'y' FROM s), trim(FROM s), trim('x' FROM s)",
		"SELECT trim(s, 'x'), ltrim(s), rtrim(s, 'y'), trim(s), trim(s, 'x')"},
	{"SELECT trim(both), trim(s, 'x')", ""},
	{"SELECT substring(s FROM 2), substring(s FROM 2 FOR 3), substr(s, 1, 2)", "SELECT substring(s, 2), substring(s, 2, 3), substr(s, 1, 2)"},
	{"SELECT overlay(s PLACING 'ab' FROM 2 FOR 1), overlay(s, 'x', 1)", "SELECT overlay(s, 'ab', 2, 1), overlay(s, 'x', 1)"},
	{"SELECT substring(substring(s, 1), 2)", ""},
	// VALUES in FROM with column aliases.
	{"SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(id, name)", "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, name)"},
	{"SELECT * FROM (VALUES 1, 2) t(x)", "SELECT * FROM (VALUES (1), (2)) AS t(x)"},
	{"SELECT * FROM (SELECT 1, 2) AS s(a, b)", ""},
	{"SELECT x.a FROM t x(a, b) JOIN json.`/d/f.json` AS j(c) ON x.a = j.c", "SELECT x.a FROM t AS x(a, b) INNER JOIN json.`/d/f.json` AS j(c) ON x.a = j.c"},
	// Nested types still close with >> and >>>.
	{"SELECT CAST(a AS ARRAY<ARRAY<INT>>), CAST(b AS MAP<STRING, ARRAY<ARRAY<INT>>>)", ""},
}

func TestSparkSyntax(t *testing.T) { checkRoundTrips(t, sparkSyntax) }

// checkRoundTrips parses each in, expects its String() to be want (in
// itself when want is ""), and that canonical form to parse back to
// itself.
func checkRoundTrips(t *testing.T, cases []struct{ in, want string }) {
	t.Helper()
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

// TestSetOpPrecedence checks the tree shape, not only the printed text.
func TestSetOpPrecedence(t *testing.T) {
	s, err := ParseOne("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4")
	if err != nil {
		t.Fatal(err)
	}
	top, ok := s.(*SelectStmt).Query.Body.(*SetOp)
	if !ok || top.Op != SetExcept {
		t.Fatalf("top = %#v, want EXCEPT", s.(*SelectStmt).Query.Body)
	}
	u, ok := top.L.(*SetOp)
	if !ok || u.Op != SetUnion {
		t.Fatalf("left of EXCEPT = %#v, want UNION", top.L)
	}
	if i, ok := u.R.(*SetOp); !ok || i.Op != SetIntersect {
		t.Fatalf("right of UNION = %#v, want INTERSECT", u.R)
	}
}

func TestNestedSpecialCallsAreLinear(t *testing.T) {
	q := "SELECT "
	for i := 0; i < 200; i++ {
		q += "substring("
	}
	q += "s"
	for i := 0; i < 200; i++ {
		q += ", 1)"
	}
	if _, err := ParseOne(q); err != nil {
		t.Fatal(err)
	}
}
