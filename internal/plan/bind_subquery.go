package plan

import (
	"strings"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// A subquery binds as a query of its own whose names may also resolve in
// the enclosing queries' scopes (Binder.outer): such a column becomes an
// expr.OuterRef. The subquery then hangs off its outer input as an Apply
// node (apply.go), and the decorrelation rules (rule_decorrelate_*.go)
// turn each Apply into joins:
//
//   - EXISTS / NOT EXISTS (q), AND-ed into WHERE: a semi / anti join
//     whose keys and residual are q's correlated conditions.
//   - x IN (q) a semi join on x = q's column (plus the correlation);
//     x NOT IN (q) a null-aware anti join, or correlated an anti join
//     whose residual is (x = v) IS NOT FALSE, as in Spark.
//   - a scalar (q), EXISTS (q), x [NOT] IN (q) and x op ANY/ALL (q) used
//     as values: cross joins (uncorrelated) or left joins with q grouped
//     by its correlated columns, the value computed over the joined row.

// splitAnd splits e at its top-level ANDs.
func splitAnd(e sql.Expr) []sql.Expr {
	if b, ok := e.(*sql.Binary); ok && b.Op == sql.OpAnd {
		return append(splitAnd(b.L), splitAnd(b.R)...)
	}
	return []sql.Expr{e}
}

func andAST(es []sql.Expr) sql.Expr {
	if len(es) == 0 {
		return nil
	}
	out := es[0]
	for _, e := range es[1:] {
		out = &sql.Binary{At: e.Pos(), Op: sql.OpAnd, L: out, R: e}
	}
	return out
}

// isSubqueryExpr reports whether x is one of the subquery forms.
func isSubqueryExpr(x sql.Expr) bool {
	switch x.(type) {
	case *sql.Subquery, *sql.Exists, *sql.InSubquery, *sql.QuantifiedSubquery:
		return true
	}
	return false
}

// firstSubquery returns the first subquery in e (not looking inside
// other subqueries), or nil.
func firstSubquery(e sql.Expr) sql.Expr {
	var found sql.Expr
	walkSQL(e, func(x sql.Expr) bool {
		if found != nil {
			return false
		}
		if isSubqueryExpr(x) {
			found = x
			return false
		}
		return true
	})
	return found
}

func (b *Binder) noStreamingSubquery(e sql.Expr) error {
	if b.Streaming {
		return errAt(e, "subqueries are not supported in streaming queries (INSERT STREAM, materialized views): run the query as a batch query, or join a static table")
	}
	return nil
}

// bindWhere binds a WHERE (or HAVING) condition over input: EXISTS and
// IN subqueries AND-ed at its top become condition Applies, the rest a
// Filter, after the value subqueries in it were attached.
func (b *Binder) bindWhere(where sql.Expr, input Node, sc *scope, clause string) (Node, *scope, error) {
	if firstSubquery(where) == nil {
		pred, err := b.bindScalar(where, sc)
		if err != nil {
			return nil, nil, err
		}
		if err := wantBool(where, pred, clause); err != nil {
			return nil, nil, err
		}
		return &Filter{Input: input, Pred: pred}, sc, nil
	}
	var rest []sql.Expr
	for _, c := range splitAnd(where) {
		n, ok, err := b.bindPredicateSubquery(c, input, sc)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			input = n
			continue
		}
		rest = append(rest, c)
	}
	if len(rest) == 0 {
		return input, sc, nil
	}
	cond := andAST(rest)
	input, sc, err := b.attachSubqueries([]sql.Expr{cond}, input, sc)
	if err != nil {
		return nil, nil, err
	}
	pred, err := b.bindScalar(cond, sc)
	if err != nil {
		return nil, nil, err
	}
	if err := wantBool(cond, pred, clause); err != nil {
		return nil, nil, err
	}
	return &Filter{Input: input, Pred: pred}, sc, nil
}

// bindPredicateSubquery turns [NOT] EXISTS (q), x [NOT] IN (q), x = ANY
// (q) and x <> ALL (q) into a condition Apply over input; ok is false for
// any other condition.
func (b *Binder) bindPredicateSubquery(c sql.Expr, input Node, sc *scope) (Node, bool, error) {
	not := false
	e := c
	for {
		u, ok := e.(*sql.Unary)
		if !ok || u.Op != sql.OpNot {
			break
		}
		not, e = !not, u.X
	}
	switch t := e.(type) {
	case *sql.Exists:
		sub, err := b.bindSubquery(t, t.Query, sc)
		if err != nil {
			return nil, false, err
		}
		return &Apply{Input: input, Sub: sub, Kind: ApplyExists, Not: not, At: t.Pos()}, true, nil
	case *sql.InSubquery:
		if firstSubquery(t.X) != nil {
			return nil, false, nil // attached as a value, after the subquery in x
		}
		n, err := b.bindInApply(t, t.X, t.Query, t.Not != not, ApplyIn, input, sc)
		return n, err == nil, err
	case *sql.QuantifiedSubquery:
		if in, ok := quantifiedIn(t); ok && firstSubquery(t.X) == nil {
			n, err := b.bindInApply(t, t.X, t.Query, in != not, ApplyIn, input, sc)
			return n, err == nil, err
		}
	}
	return nil, false, nil
}

// quantifiedIn says whether x op ANY/ALL (q) is x [NOT] IN (q): = ANY is
// IN, <> ALL is NOT IN (not is true), with the same NULL rules.
func quantifiedIn(q *sql.QuantifiedSubquery) (not, ok bool) {
	switch {
	case q.Op == sql.OpEq && !q.All:
		return false, true
	case q.Op == sql.OpNe && q.All:
		return true, true
	}
	return false, false
}

// bindInApply binds x [NOT] IN (q) as an Apply of kind (a condition or
// a value) over input.
func (b *Binder) bindInApply(at, x sql.Expr, q *sql.Query, not bool, kind ApplyKind, input Node, sc *scope) (*Apply, error) {
	probe, err := b.bindScalar(x, sc)
	if err != nil {
		return nil, err
	}
	sub, err := b.bindSubquery(at, q, sc)
	if err != nil {
		return nil, err
	}
	if w := sub.Schema().NumFields(); w != 1 {
		return nil, errAt(at, "the subquery of IN must return one column, got %d", w)
	}
	f := sub.Schema().Field(0)
	if _, _, err := inKeys(at, probe, expr.Col(0, f.Name, f.Type)); err != nil {
		return nil, err
	}
	return &Apply{Input: input, Sub: sub, Kind: kind, Not: not, Probe: probe, At: at.Pos()}, nil
}

// bindSubquery binds q with sc (and the scopes around it) visible as
// outer scopes: names q cannot resolve itself become outer references.
func (b *Binder) bindSubquery(at sql.Expr, q *sql.Query, sc *scope) (Node, error) {
	if err := b.noStreamingSubquery(at); err != nil {
		return nil, err
	}
	b.outer = append(b.outer, sc)
	defer func() { b.outer = b.outer[:len(b.outer)-1] }()
	n, _, err := b.bindQuery(q)
	return n, err
}

// outerColumn resolves a column name no scope of the query itself has
// in the enclosing queries' scopes, innermost first.
func (b *Binder) outerColumn(parts []string) (expr.Expr, []string, error) {
	for d := 1; d <= len(b.outer); d++ {
		sc := b.outer[len(b.outer)-d]
		col, rest, err := resolveIn(sc, parts)
		if err != nil {
			return nil, nil, err
		}
		if col != nil {
			return expr.Outer(d, col.Index, col.Name, col.Type), rest, nil
		}
	}
	return nil, nil, nil
}

// resolveIn finds parts in sc: table.column or column, and the field
// path left over.
func resolveIn(sc *scope, parts []string) (*scopeCol, []string, error) {
	if len(parts) >= 2 && sc.hasTable(parts[0]) {
		col, err := sc.find(parts[0], parts[1])
		if err != nil || col != nil {
			return col, parts[2:], err
		}
	}
	col, err := sc.find("", parts[0])
	return col, parts[1:], err
}

// inKeys are the join keys of x IN (subquery of v): x and v cast as x = v
// casts them (an INT against a STRING compares as INT, as in Spark).
func inKeys(at sql.Expr, x, v expr.Expr) (expr.Expr, expr.Expr, error) {
	eq, err := expr.Call("=", x, v)
	if err != nil {
		return nil, nil, errAt(at, "IN compares %s with a subquery of %s: %v", typeName(x.Type()), typeName(v.Type()), err)
	}
	if c, ok := eq.(*expr.CallExpr); ok && len(c.Args) == 2 {
		return c.Args[0], c.Args[1], nil
	}
	return x, v, nil
}

// aggregateSubqueryError refuses a subquery inside an aggregate call's
// arguments, as Spark does.
func aggregateSubqueryError(t *sql.Call) error {
	if t.Over == nil && expr.IsAggregate(strings.ToLower(t.Name)) {
		if s := firstSubquery(&sql.Call{Name: "f", Args: t.Args}); s != nil {
			return errAt(s, "subqueries inside aggregate functions are not supported")
		}
	}
	return nil
}
