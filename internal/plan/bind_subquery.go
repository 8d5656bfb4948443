package plan

import (
	"sluice/internal/expr"
	"sluice/internal/sql"
)

// Subqueries are decorrelated while binding, into joins:
//
//   - EXISTS / NOT EXISTS (q), AND-ed into WHERE: a semi / anti join with
//     q's FROM and uncorrelated WHERE; q's correlated conditions become
//     the join's keys (equalities) and residual (the rest).
//   - x IN (q): a semi join on x = q's column (plus the correlation).
//   - x NOT IN (q): uncorrelated, a null-aware anti join; correlated, an
//     anti join whose residual is (x = v) IS NOT FALSE, so that a NULL
//     comparison removes the row, as in Spark.
//   - a scalar (q) anywhere in WHERE, SELECT, HAVING or ORDER BY:
//     uncorrelated, a cross join with q aggregated to its one value
//     (scalar_subquery_value fails on a second row); correlated (q must
//     aggregate), a left join with q grouped by its correlated columns,
//     with the value an empty group would have (count 0) when no group
//     matches.
//   - EXISTS (q) as a value: a cross join with count(*) > 0 of q, or
//     correlated, a left join with q's distinct correlated keys.
//   - x [NOT] IN (q) as a value (SELECT list, under OR), uncorrelated: a
//     left join with q's distinct values and a cross join with its row
//     and non-NULL counts, for the three-valued result.
//
// It happens here rather than in a rewrite rule because correlation is
// found by name resolution: a condition of q's WHERE that binds only with
// the outer query's scope as a fallback (scope.outer) is correlated.

// correlated is a subquery bound for decorrelation: its FROM and
// uncorrelated WHERE, with the correlated conditions over the joined
// row (the outer input's columns, then the subquery's).
type correlated struct {
	sel       *sql.Select
	node      Node
	sc        *scope
	uncorr    []sql.Expr
	outerKeys []expr.Expr // over the outer input
	innerKeys []expr.Expr // over node
	innerAST  []sql.Expr  // the inner side of each key, as written
	residual  []expr.Expr // over outer columns then node's
}

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

// firstSubquery returns the first subquery in e (not looking inside
// other subqueries), or nil.
func firstSubquery(e sql.Expr) sql.Expr {
	var found sql.Expr
	walkSQL(e, func(x sql.Expr) bool {
		if found != nil {
			return false
		}
		switch x.(type) {
		case *sql.Subquery, *sql.Exists, *sql.InSubquery:
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
// IN subqueries AND-ed at its top become semi and anti joins, the rest a
// Filter, after the scalar subqueries in it were joined in.
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

// bindPredicateSubquery turns [NOT] EXISTS (q) and x [NOT] IN (q) into a
// join over input; ok is false for any other condition.
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
		n, err := b.bindExistsJoin(t, not, input, sc)
		return n, err == nil, err
	case *sql.InSubquery:
		n, err := b.bindInJoin(t, t.Not != not, input, sc)
		return n, err == nil, err
	}
	return nil, false, nil
}

// bindSubquery binds q on its own when it is not correlated (corr nil),
// else splits it for decorrelation against the outer input.
func (b *Binder) bindSubquery(at sql.Expr, q *sql.Query, outer Node, osc *scope) (Node, *correlated, error) {
	if err := b.noStreamingSubquery(at); err != nil {
		return nil, nil, err
	}
	n, _, err := b.bindQuery(q)
	if err == nil || isCancel(err) {
		return n, nil, err
	}
	sel, ok := q.Body.(*sql.Select)
	if !ok || sel.From == nil || sel.Where == nil || len(q.With) > 0 || q.Limit != nil || q.Offset != nil {
		return nil, nil, err
	}
	node, isc, ferr := b.bindFrom(sel.From)
	if ferr != nil {
		return nil, nil, ferr
	}
	nOuter := outer.Schema().NumFields()
	jsc := &scope{outer: osc}
	for _, c := range isc.cols {
		c.Index += nOuter
		jsc.cols = append(jsc.cols, c)
	}
	shift := map[int]int{}
	for i := range isc.cols {
		shift[nOuter+i] = i
	}
	corr := &correlated{sel: sel, sc: isc}
	for _, c := range splitAnd(sel.Where) {
		if firstSubquery(c) != nil {
			corr.uncorr = append(corr.uncorr, c)
			continue
		}
		if _, ierr := b.bindScalar(c, isc); ierr == nil {
			corr.uncorr = append(corr.uncorr, c)
			continue
		}
		bound, cerr := b.bindScalar(c, jsc)
		if cerr != nil {
			return nil, nil, cerr
		}
		bin, isEq := c.(*sql.Binary)
		if lk, rk, ok := equiKeys(bound, nOuter); ok && isEq && bin.Op == sql.OpEq {
			corr.outerKeys = append(corr.outerKeys, lk)
			corr.innerKeys = append(corr.innerKeys, rk)
			inner := bin.L
			if _, lerr := b.bindScalar(inner, isc); lerr != nil {
				inner = bin.R
			}
			corr.innerAST = append(corr.innerAST, inner)
			continue
		}
		corr.residual = append(corr.residual, bound)
	}
	if len(corr.outerKeys)+len(corr.residual) == 0 {
		// Correlation, if any, is outside WHERE: report the first error.
		return nil, nil, err
	}
	if len(corr.uncorr) > 0 {
		if node, isc, err = b.bindWhere(andAST(corr.uncorr), node, isc, "WHERE"); err != nil {
			return nil, nil, err
		}
	}
	corr.node, corr.sc = node, isc
	return nil, corr, nil
}

// aggregated reports whether a SELECT groups or aggregates.
func aggregated(sel *sql.Select) bool {
	if len(sel.GroupBy) > 0 || sel.GroupByAll || sel.Having != nil {
		return true
	}
	for _, it := range sel.Items {
		if len(collectAggs(it.Expr, nil)) > 0 {
			return true
		}
	}
	return false
}

func (b *Binder) bindExistsJoin(e *sql.Exists, not bool, input Node, sc *scope) (Node, error) {
	kind := SemiJoin
	if not {
		kind = AntiJoin
	}
	n, corr, err := b.bindSubquery(e, e.Query, input, sc)
	if err != nil {
		return nil, err
	}
	if corr == nil {
		// Any one row decides.
		return &Join{Left: input, Right: &Limit{Input: n, N: 1}, Kind: kind}, nil
	}
	if aggregated(corr.sel) {
		return nil, errAt(e, "correlated EXISTS subqueries with GROUP BY, HAVING or aggregates are not supported")
	}
	return &Join{Left: input, Right: corr.node, Kind: kind, LeftKeys: corr.outerKeys, RightKeys: corr.innerKeys,
		Residual: expr.AndAll(corr.residual)}, nil
}

func (b *Binder) bindInJoin(e *sql.InSubquery, not bool, input Node, sc *scope) (Node, error) {
	x, err := b.bindScalar(e.X, sc)
	if err != nil {
		return nil, err
	}
	n, corr, err := b.bindSubquery(e, e.Query, input, sc)
	if err != nil {
		return nil, err
	}
	if corr == nil {
		if w := n.Schema().NumFields(); w != 1 {
			return nil, errAt(e, "the subquery of IN must return one column, got %d", w)
		}
		f := n.Schema().Field(0)
		lk, rk, err := inKeys(e, x, expr.Col(0, f.Name, f.Type))
		if err != nil {
			return nil, err
		}
		kind := SemiJoin
		if not {
			kind = NullAwareAntiJoin
		}
		return &Join{Left: input, Right: n, Kind: kind, LeftKeys: []expr.Expr{lk}, RightKeys: []expr.Expr{rk}}, nil
	}
	if aggregated(corr.sel) || len(corr.sel.Items) != 1 {
		return nil, errAt(e, "a correlated IN subquery must select one column, without GROUP BY or aggregates")
	}
	if _, star := corr.sel.Items[0].Expr.(*sql.Star); star {
		return nil, errAt(e, "a correlated IN subquery must select one column, not *")
	}
	v, err := b.bindScalar(corr.sel.Items[0].Expr, corr.sc)
	if err != nil {
		return nil, err
	}
	lk, rk, err := inKeys(e, x, v)
	if err != nil {
		return nil, err
	}
	j := &Join{Left: input, Right: corr.node, LeftKeys: corr.outerKeys, RightKeys: corr.innerKeys}
	if !not {
		j.Kind = SemiJoin
		j.LeftKeys = append(append([]expr.Expr{}, j.LeftKeys...), lk)
		j.RightKeys = append(append([]expr.Expr{}, j.RightKeys...), rk)
		j.Residual = expr.AndAll(corr.residual)
		return j, nil
	}
	// A row goes when some correlated row compares TRUE or NULL with it.
	nOuter := input.Schema().NumFields()
	shift := map[int]int{}
	for i := range corr.sc.cols {
		shift[i] = nOuter + i
	}
	eq, err := expr.Call("=", x, expr.Remap(v, shift))
	if err != nil {
		return nil, errAt(e, "%v", err)
	}
	isFalse, err := expr.Call("is_false", eq)
	if err != nil {
		return nil, errAt(e, "%v", err)
	}
	notFalse, err := expr.Call("not", isFalse)
	if err != nil {
		return nil, errAt(e, "%v", err)
	}
	j.Kind = AntiJoin
	j.Residual = expr.AndAll(append(append([]expr.Expr{}, corr.residual...), notFalse))
	return j, nil
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
