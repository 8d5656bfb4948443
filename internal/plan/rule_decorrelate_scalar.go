package plan

import (
	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// DecorrelateScalar turns a scalar subquery into a join. Uncorrelated: a
// cross join with its one value (scalar_subquery_value fails on a second
// row). Correlated (it must aggregate, without GROUP BY): a left join
// with the aggregate grouped by its correlated columns; an outer row no
// group matches gets the aggregate over no rows (count 0), and a group
// HAVING rejects reads NULL.
type DecorrelateScalar struct{}

var _ Rule = DecorrelateScalar{}

// Name of the rule.
func (DecorrelateScalar) Name() string { return "decorrelate_scalar" }

// Apply rewrites an ApplyScalar.
func (r DecorrelateScalar) Apply(n Node) (Node, bool, error) { return tryRewrite(n, r.rewrite) }

func (DecorrelateScalar) rewrite(n Node) (Node, bool, error) {
	a, ok := readyApply(n, ApplyScalar)
	if !ok {
		return n, false, nil
	}
	if !correlated(a.Sub) {
		sub, err := shiftDepth(a.Sub)
		if err != nil {
			return nil, false, err
		}
		one, err := singleValue(sub, a.Name)
		if err != nil {
			return nil, false, a.errorf("%v", err)
		}
		return &Join{Left: a.Input, Right: one, Kind: CrossJoin}, true, nil
	}
	d := newDecorrelator(a)
	c, err := d.pullTop(a.Sub)
	if err != nil {
		return nil, false, err
	}
	if !c.agg && !c.oneRow {
		if len(c.preds) > 0 {
			return nil, false, a.errorf("a correlated scalar subquery must compute one aggregate, without GROUP BY (so it yields at most one row)")
		}
		return scalarOuterOnly(a, d, c)
	}
	lk, rk, res := d.splitCorr(c.preds)
	if len(res) > 0 {
		return nil, false, a.errorf("a correlated subquery used as a value may only compare outer columns with = (found another condition on them)")
	}
	v := c.out[0]
	// Right: the keys, what the value and HAVING read, a match marker.
	var exprs []expr.Expr
	var names []string
	for i, k := range rk {
		exprs = append(exprs, k)
		names = append(names, "__key"+itoa(i+1))
	}
	nOuter := d.nOuter
	mapping := map[int]int{}
	inner := !d.readsOuter(v) && !expr.HasOuter(v, 1)
	if inner {
		exprs = append(exprs, d.innerOf(v))
		names = append(names, a.Name)
	}
	keep := func(e expr.Expr) {
		for _, i := range expr.Columns(e) {
			if _, done := mapping[i]; i >= nOuter && !done {
				mapping[i] = nOuter + len(exprs)
				f := c.node.Schema().Field(i - nOuter)
				exprs = append(exprs, expr.Col(i-nOuter, f.Name, f.Type))
				names = append(names, f.Name)
			}
		}
	}
	if !inner {
		keep(v)
	}
	for _, h := range c.having {
		keep(h)
	}
	exprs = append(exprs, expr.MustLit(true, types.Boolean))
	names = append(names, "__matched")
	right := &Project{Input: c.node, Exprs: exprs, Names: names}
	j := &Join{Left: a.Input, Right: right, Kind: LeftJoin, LeftKeys: lk}
	for i := range rk {
		j.RightKeys = append(j.RightKeys, expr.Col(i, names[i], exprs[i].Type()))
	}
	matched := expr.Col(nOuter+len(exprs)-1, "__matched", types.Boolean)
	empty := emptySubst(v, c.empty, nOuter)
	var value expr.Expr
	if inner {
		value = expr.Col(nOuter+len(rk), a.Name, v.Type())
	} else {
		value = expr.Remap(v, mapping)
	}
	if f, err := expr.Fold(empty); err == nil {
		empty = f
	}
	if l, ok := empty.(*expr.Literal); ok && l.Value == nil || !c.agg {
		empty = nil // no row (LIMIT 1 of none) is NULL
	}
	if !inner && empty != nil {
		// Computed above the join, the value reads NULL inner columns
		// where no group matched: only a count's 0 needs saying.
		zero := false
		for _, i := range expr.Columns(v) {
			zero = zero || c.empty[i] != nil
		}
		if !zero {
			empty = nil
		}
	}
	var whens, thens []expr.Expr
	if len(c.having) > 0 {
		h := expr.AndAll(c.having)
		hEmpty, err := expr.Fold(emptySubst(h, c.empty, nOuter))
		if err != nil {
			hEmpty = expr.MustLit(nil, types.Boolean)
		}
		if l, ok := hEmpty.(*expr.Literal); ok && l.Value != true {
			empty = nil
		} else if !ok && empty != nil {
			if empty, err = expr.Case(nil, []expr.Expr{hEmpty}, []expr.Expr{empty}, nil); err != nil {
				return nil, false, err
			}
		}
		isNull, err := expr.Call("is_null", matched)
		if err != nil {
			return nil, false, err
		}
		if empty == nil {
			empty = expr.MustLit(nil, value.Type())
		}
		whens = append(whens, isNull, expr.Remap(h, mapping))
		thens = append(thens, empty, value)
		if value, err = expr.Case(nil, whens, thens, nil); err != nil {
			return nil, false, err
		}
	} else if empty != nil {
		isNull, err := expr.Call("is_null", matched)
		if err != nil {
			return nil, false, err
		}
		if value, err = expr.Case(nil, []expr.Expr{isNull}, []expr.Expr{empty}, value); err != nil {
			return nil, false, err
		}
	}
	out, err := applyOutput(a, j, value)
	return out, err == nil, err
}

// scalarOuterOnly rewrites a scalar subquery whose only outer columns are
// in its SELECT list: the subquery's rows do not depend on the outer row,
// so a cross join with its one row (or none) serves, and the value is
// computed over the joined row.
func scalarOuterOnly(a *Apply, d *decorrelator, c *corrPlan) (Node, bool, error) {
	v := c.out[0]
	nOuter := d.nOuter
	var aggs []*expr.Aggregate
	var names []string
	mapping := map[int]int{}
	for _, i := range expr.Columns(v) {
		if i < nOuter {
			continue
		}
		f := c.node.Schema().Field(i - nOuter)
		one, err := expr.NewAggregate(functions.SingleValueName, []expr.Expr{expr.Col(i-nOuter, f.Name, f.Type)}, false)
		if err != nil {
			return nil, false, err
		}
		mapping[i] = nOuter + len(aggs)
		aggs = append(aggs, one)
		names = append(names, f.Name)
	}
	marker, err := expr.NewAggregate(functions.SingleValueName, []expr.Expr{expr.MustLit(true, types.Boolean)}, false)
	if err != nil {
		return nil, false, err
	}
	aggs = append(aggs, marker)
	names = append(names, "__matched")
	right := &Aggregate{Input: c.node, Aggs: aggs, AggNames: names}
	j := &Join{Left: a.Input, Right: right, Kind: CrossJoin}
	matched := expr.Col(nOuter+len(aggs)-1, "__matched", types.Boolean)
	value, err := expr.Case(nil, []expr.Expr{matched}, []expr.Expr{expr.Remap(v, mapping)}, nil)
	if err != nil {
		return nil, false, err
	}
	out, err := applyOutput(a, j, value)
	return out, err == nil, err
}
