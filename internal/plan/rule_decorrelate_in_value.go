package plan

import (
	"sluice/internal/expr"
	"sluice/internal/types"
)

// DecorrelateInValue turns x [NOT] IN (q) used as a value (SELECT list,
// under OR) into joins: one with q's row and non-NULL counts (per
// correlated key; a cross join when uncorrelated), then a left join with
// q's distinct (key, value) pairs marking the matches. No match is NULL
// when x is NULL or q has a NULL, FALSE when q is empty, as in Spark.
type DecorrelateInValue struct{}

var _ Rule = DecorrelateInValue{}

// Name of the rule.
func (DecorrelateInValue) Name() string { return "decorrelate_in_value" }

// Apply rewrites an ApplyInValue.
func (r DecorrelateInValue) Apply(n Node) (Node, bool, error) { return tryRewrite(n, r.rewrite) }

func (DecorrelateInValue) rewrite(n Node) (Node, bool, error) {
	a, ok := readyApply(n, ApplyInValue)
	if !ok {
		return n, false, nil
	}
	if correlated(a.Sub) && globalAggregate(a.Sub) {
		n, value, err := compareOverAggregate(a, "=", false)
		if err == nil {
			value, err = notIf(a.Not, value)
		}
		if err == nil {
			n, err = applyOutput(a, n, value)
		}
		return n, err == nil, err
	}
	d := newDecorrelator(a)
	g, err := groupedValues(a, d, "IN")
	if err != nil {
		return nil, false, err
	}
	nk := g.nk
	count, _ := expr.NewAggregate("count", nil, false)
	countV, err := expr.NewAggregate("count", []expr.Expr{g.v}, false)
	if err != nil {
		return nil, false, err
	}
	keys := g.keyCols()
	counts := &Aggregate{Input: g.node, Keys: keys, KeyNames: keyNames(nk), Aggs: []*expr.Aggregate{count, countV}, AggNames: []string{"__rows", "__values"}}
	vName := g.node.Schema().Field(nk).Name
	marks := &Project{Input: &Distinct{Input: g.node}, Exprs: append(append([]expr.Expr{}, keys...), g.v, expr.MustLit(true, types.Boolean)),
		Names: append(keyNames(nk), vName, "__in")}
	lk, rk, err := inKeys(nil, a.Probe, expr.Col(nk, vName, g.v.Type()))
	if err != nil {
		return nil, false, err
	}
	node := &Join{Left: joinGrouped(a.Input, counts, g), Right: marks, Kind: LeftJoin,
		LeftKeys: append(append([]expr.Expr{}, g.lk...), lk), RightKeys: append(append([]expr.Expr{}, keys...), rk)}
	base := d.nOuter
	rows := expr.Col(base+nk, "__rows", types.BigInt)
	values := expr.Col(base+nk+1, "__values", types.BigInt)
	mark := expr.Col(base+nk+2+nk+1, "__in", types.Boolean)
	rowsOr0, err0 := rowCount(rows, g)
	matched, err1 := expr.Call("is_not_null", mark)
	empty, err2 := expr.Call("=", rowsOr0, expr.MustLit(int64(0), types.BigInt))
	xNull, err3 := expr.Call("is_null", a.Probe)
	hasNull, err4 := expr.Call("<", values, rows)
	nullCase, err5 := expr.Call("or", xNull, hasNull)
	for _, err := range []error{err0, err1, err2, err3, err4, err5} {
		if err != nil {
			return nil, false, err
		}
	}
	t, f0 := expr.MustLit(true, types.Boolean), expr.MustLit(false, types.Boolean)
	null := expr.MustLit(nil, types.Boolean)
	value, err := expr.Case(nil, []expr.Expr{matched, empty, nullCase}, []expr.Expr{t, f0, null}, f0)
	if err != nil {
		return nil, false, err
	}
	if a.Not {
		if value, err = expr.Call("not", value); err != nil {
			return nil, false, err
		}
	}
	out, err := applyOutput(a, node, value)
	return out, err == nil, err
}
