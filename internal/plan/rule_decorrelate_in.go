package plan

import "sluice/internal/expr"

// DecorrelateIn turns x [NOT] IN (q) as a condition into a join: IN a
// semi join on x = q's column (and the correlation); uncorrelated NOT IN
// a null-aware anti join; correlated NOT IN an anti join whose residual
// is (x = v) IS NOT FALSE, so that a NULL comparison removes the row, as
// in Spark.
type DecorrelateIn struct{}

var _ Rule = DecorrelateIn{}

// Name of the rule.
func (DecorrelateIn) Name() string { return "decorrelate_in" }

// Apply rewrites an ApplyIn.
func (r DecorrelateIn) Apply(n Node) (Node, bool, error) { return tryRewrite(n, r.rewrite) }

func (DecorrelateIn) rewrite(n Node) (Node, bool, error) {
	a, ok := readyApply(n, ApplyIn)
	if !ok {
		return n, false, nil
	}
	x := a.Probe
	if !correlated(a.Sub) {
		sub, err := shiftDepth(a.Sub)
		if err != nil {
			return nil, false, err
		}
		f := sub.Schema().Field(0)
		lk, rk, err := inKeys(nil, x, expr.Col(0, f.Name, f.Type))
		if err != nil {
			return nil, false, err
		}
		kind := SemiJoin
		if a.Not {
			kind = NullAwareAntiJoin
		}
		return &Join{Left: a.Input, Right: sub, Kind: kind, LeftKeys: []expr.Expr{lk}, RightKeys: []expr.Expr{rk}}, true, nil
	}
	if globalAggregate(a.Sub) {
		n, cond, err := compareOverAggregate(a, "=", false)
		if err == nil {
			cond, err = notIf(a.Not, cond)
		}
		if err != nil {
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
		return nil, false, a.errorf("a correlated IN subquery over an aggregate without GROUP BY is not supported")
	}
	v := c.out[0]
	lk, rk, res := d.splitCorr(c.preds)
	j := &Join{Left: a.Input, Right: c.node, LeftKeys: lk, RightKeys: rk}
	if !a.Not {
		j.Kind = SemiJoin
		if !d.readsOuter(v) && !expr.HasOuter(v, 1) {
			l, r, err := inKeys(nil, x, d.innerOf(v))
			if err != nil {
				return nil, false, err
			}
			j.LeftKeys = append(append([]expr.Expr{}, lk...), l)
			j.RightKeys = append(append([]expr.Expr{}, rk...), r)
		} else {
			eq, err := expr.Call("=", x, v)
			if err != nil {
				return nil, false, err
			}
			res = append(res, eq)
		}
		j.Residual = expr.AndAll(res)
		return j, true, nil
	}
	// A row goes when some correlated row compares TRUE or NULL with it.
	eq, err := expr.Call("=", x, v)
	if err != nil {
		return nil, false, err
	}
	isFalse, err := expr.Call("is_false", eq)
	if err != nil {
		return nil, false, err
	}
	notFalse, err := expr.Call("not", isFalse)
	if err != nil {
		return nil, false, err
	}
	j.Kind = AntiJoin
	j.Residual = expr.AndAll(append(res, notFalse))
	return j, true, nil
}
