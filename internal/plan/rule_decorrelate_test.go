package plan

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

func bindOnly(t *testing.T, q string) Node {
	t.Helper()
	st, err := sql.ParseOne(q)
	if err != nil {
		t.Fatalf("parse %q: %v", q, err)
	}
	n, err := NewBinder(context.Background(), testTables{}).BindQuery(st.(*sql.SelectStmt).Query)
	if err != nil {
		t.Fatalf("bind %q: %v", q, err)
	}
	return n
}

func countNodes(n Node, match func(Node) bool) int {
	c := 0
	walkNodes(n, func(m Node) {
		if match(m) {
			c++
		}
	})
	return c
}

func hasOuterRef(n Node) bool {
	found := false
	walkNodes(n, func(m Node) {
		_, _ = mapExprs(m, func(e expr.Expr) (expr.Expr, error) {
			found = found || expr.HasOuter(e, 1)
			return e, nil
		})
	})
	return found
}

// The binder leaves one Apply per subquery, reading the outer query
// through outer references; the rules leave none of either.
func TestDecorrelateRulesReplaceEveryApply(t *testing.T) {
	cases := []struct {
		q     string
		apply ApplyKind
		join  JoinKind
	}{
		{"SELECT path FROM logs WHERE EXISTS (SELECT 1 FROM users WHERE users.user_id = logs.user_id)", ApplyExists, SemiJoin},
		{"SELECT path FROM logs WHERE NOT EXISTS (SELECT 1 FROM users WHERE users.user_id = logs.user_id)", ApplyExists, AntiJoin},
		{"SELECT path FROM logs WHERE user_id IN (SELECT user_id FROM users WHERE name = logs.path)", ApplyIn, SemiJoin},
		{"SELECT path FROM logs WHERE user_id NOT IN (SELECT user_id FROM users)", ApplyIn, NullAwareAntiJoin},
		{"SELECT path, (SELECT count(*) FROM users WHERE users.user_id = logs.user_id) FROM logs", ApplyScalar, LeftJoin},
		{"SELECT path, (SELECT max(name) FROM users) FROM logs", ApplyScalar, CrossJoin},
		{"SELECT EXISTS (SELECT 1 FROM users WHERE users.user_id = logs.user_id) FROM logs", ApplyExistsValue, LeftJoin},
		{"SELECT user_id IN (SELECT user_id FROM users WHERE users.name = logs.path) FROM logs", ApplyInValue, LeftJoin},
		{"SELECT size > ALL (SELECT user_id FROM users WHERE users.name = logs.path) FROM logs", ApplyCompare, LeftJoin},
	}
	for _, c := range cases {
		n := bindOnly(t, c.q)
		applies := countNodes(n, func(m Node) bool { a, ok := m.(*Apply); return ok && a.Kind == c.apply })
		if applies != 1 {
			t.Errorf("%s: bound plan has %d Apply %s, want 1:\n%s", c.q, applies, c.apply, Format(n))
		}
		out, err := Optimize(n)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if k := countNodes(out, func(m Node) bool { _, ok := m.(*Apply); return ok }); k != 0 || hasOuterRef(out) {
			t.Errorf("%s: optimized plan keeps an Apply or outer reference:\n%s", c.q, Format(out))
		}
		if countNodes(out, func(m Node) bool { j, ok := m.(*Join); return ok && j.Kind == c.join }) == 0 {
			t.Errorf("%s: no %s join in:\n%s", c.q, c.join, Format(out))
		}
	}
}

// A reference two levels out is an outer reference of depth 2 until the
// inner Apply is rewritten; the plan ends with none.
func TestDecorrelateTwoLevels(t *testing.T) {
	q := "SELECT path FROM logs WHERE EXISTS (SELECT 1 FROM users WHERE users.user_id = logs.user_id AND EXISTS (SELECT 1 FROM logs l2 WHERE l2.status = logs.status AND l2.path = users.name))"
	n := bindOnly(t, q)
	deep := false
	walkNodes(n, func(m Node) {
		_, _ = mapExprs(m, func(e expr.Expr) (expr.Expr, error) {
			deep = deep || expr.HasOuter(e, 2)
			return e, nil
		})
	})
	if !deep {
		t.Fatalf("no depth-2 outer reference in:\n%s", Format(n))
	}
	out, err := Optimize(n)
	if err != nil {
		t.Fatal(err)
	}
	if hasOuterRef(out) || countNodes(out, func(m Node) bool { _, ok := m.(*Apply); return ok }) > 0 {
		t.Fatalf("outer references left:\n%s", Format(out))
	}
}

func TestDecorrelateErrors(t *testing.T) {
	cases := []struct{ q, want string }{
		{"SELECT (SELECT name FROM users WHERE users.user_id = logs.user_id) FROM logs", "must compute one aggregate"},
		{"SELECT (SELECT max(name) FROM users WHERE users.user_id > logs.user_id) FROM logs", ""},
		{"SELECT (SELECT max(users.name) FROM users WHERE users.user_id = logs.user_id AND users.name < (SELECT max(l2.path) FROM logs l2 WHERE l2.size > logs.size)) FROM logs", ""},
		{"SELECT (SELECT max(users.user_id + logs.size) FROM users) FROM logs", ""},
		{"SELECT path FROM logs WHERE user_id IN (SELECT user_id FROM users WHERE users.name = logs.path LIMIT 1 OFFSET 2) OR size > 1", ""},
		{"SELECT path FROM logs WHERE user_id IN (SELECT user_id FROM users UNION SELECT user_id FROM users WHERE name = logs.path)", ""},
		{"SELECT (SELECT name FROM users WHERE users.user_id = logs.user_id LIMIT 2) FROM logs", "must compute one aggregate"},
	}
	for _, c := range cases {
		_, err := bindSQL(t, c.q)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.q, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.q, err, c.want)
		}
		var pe *Error
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%s: %T is not a *plan.Error", c.q, err)
		}
	}
}
