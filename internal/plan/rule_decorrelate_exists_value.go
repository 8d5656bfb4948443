package plan

import (
	"sluice/internal/expr"
	"sluice/internal/types"
)

// DecorrelateExistsValue turns EXISTS (q) used as a value into a join:
// uncorrelated, a cross join with count(*) > 0 of q's first row;
// correlated (on equalities), a left join with q's distinct correlated
// keys, the value whether one matched.
type DecorrelateExistsValue struct{}

var _ Rule = DecorrelateExistsValue{}

// Name of the rule.
func (DecorrelateExistsValue) Name() string { return "decorrelate_exists_value" }

// Apply rewrites an ApplyExistsValue.
func (r DecorrelateExistsValue) Apply(n Node) (Node, bool, error) { return tryRewrite(n, r.rewrite) }

func (DecorrelateExistsValue) rewrite(n Node) (Node, bool, error) {
	a, ok := readyApply(n, ApplyExistsValue)
	if !ok {
		return n, false, nil
	}
	if !correlated(a.Sub) {
		sub, err := shiftDepth(a.Sub)
		if err != nil {
			return nil, false, err
		}
		count, _ := expr.NewAggregate("count", nil, false)
		agg := &Aggregate{Input: &Limit{Input: sub, N: 1}, Aggs: []*expr.Aggregate{count}, AggNames: []string{"count(*)"}}
		gt, err := expr.Call(">", expr.Col(0, "count(*)", types.BigInt), expr.MustLit(int64(0), types.BigInt))
		if err != nil {
			return nil, false, err
		}
		right := &Project{Input: agg, Exprs: []expr.Expr{gt}, Names: []string{a.Name}}
		return &Join{Left: a.Input, Right: right, Kind: CrossJoin}, true, nil
	}
	if globalAggregate(a.Sub) {
		n, cond, err := existsOverAggregate(a)
		if err != nil {
			return nil, false, err
		}
		out, err := applyOutput(a, n, cond)
		return out, err == nil, err
	}
	d := newDecorrelator(a)
	c, err := d.pullTop(a.Sub)
	if err != nil {
		return nil, false, err
	}
	if c.agg {
		return nil, false, a.errorf("correlated EXISTS subqueries over an aggregate without GROUP BY are not supported")
	}
	if c, err = d.domainize(c); err != nil {
		return nil, false, err
	}
	lk, rk, res := d.splitCorr(c.preds)
	if len(res) > 0 {
		return nil, false, a.errorf("a correlated subquery used as a value may only compare outer columns with = (found another condition on them)")
	}
	keys := &Aggregate{Input: c.node, Keys: rk}
	var exprs []expr.Expr
	var names []string
	for i, k := range rk {
		keys.KeyNames = append(keys.KeyNames, "__key"+itoa(i+1))
		exprs = append(exprs, expr.Col(i, "__key"+itoa(i+1), k.Type()))
		names = append(names, "__key"+itoa(i+1))
	}
	exprs = append(exprs, expr.MustLit(true, types.Boolean))
	names = append(names, "__matched")
	right := &Project{Input: keys, Exprs: exprs, Names: names}
	j := &Join{Left: a.Input, Right: right, Kind: LeftJoin, LeftKeys: lk}
	for i := range rk {
		j.RightKeys = append(j.RightKeys, exprs[i])
	}
	value, err := expr.Call("is_not_null", expr.Col(d.nOuter+len(rk), "__matched", types.Boolean))
	if err != nil {
		return nil, false, err
	}
	out, err := applyOutput(a, j, value)
	return out, err == nil, err
}
