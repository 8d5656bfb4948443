package plan

import "sluice/internal/expr"

// DecorrelateExists turns [NOT] EXISTS (q) as a condition into a semi
// (anti) join: uncorrelated, with q's first row; correlated, with q's
// correlated conditions as the join's keys and residual.
type DecorrelateExists struct{}

var _ Rule = DecorrelateExists{}

// Name of the rule.
func (DecorrelateExists) Name() string { return "decorrelate_exists" }

// Apply rewrites an ApplyExists.
func (r DecorrelateExists) Apply(n Node) (Node, bool, error) { return tryRewrite(n, r.rewrite) }

func (DecorrelateExists) rewrite(n Node) (Node, bool, error) {
	a, ok := readyApply(n, ApplyExists)
	if !ok {
		return n, false, nil
	}
	kind := SemiJoin
	if a.Not {
		kind = AntiJoin
	}
	if !correlated(a.Sub) {
		sub, err := shiftDepth(a.Sub)
		if err != nil {
			return nil, false, err
		}
		// Any one row decides.
		return &Join{Left: a.Input, Right: &Limit{Input: sub, N: 1}, Kind: kind}, true, nil
	}
	if globalAggregate(a.Sub) {
		n, cond, err := existsOverAggregate(a)
		if err != nil {
			return nil, false, err
		}
		if cond, err = notIf(a.Not, cond); err != nil {
			return nil, false, err
		}
		return keepWhere(a, n, cond), true, nil
	}
	d := newDecorrelator(a)
	c, err := d.pullTop(a.Sub)
	if err != nil {
		return nil, false, err
	}
	if c.agg {
		return nil, false, a.errorf("correlated EXISTS subqueries over an aggregate without GROUP BY are not supported")
	}
	lk, rk, res := d.splitCorr(c.preds)
	return &Join{Left: a.Input, Right: c.node, Kind: kind, LeftKeys: lk, RightKeys: rk, Residual: expr.AndAll(res)}, true, nil
}
