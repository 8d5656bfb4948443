package plan

import (
	"sluice/internal/expr"
	"sluice/internal/types"
)

// DecorrelateCompare turns x op ANY (q) and x op ALL (q) (op one of <,
// <=, >, >=, or = ALL, <> ANY; = ANY and <> ALL are IN and NOT IN) into
// a join with q's row count, non-NULL count, min and max (per correlated
// key; a cross join when uncorrelated). With SQL's NULL rules: ALL over
// no rows is TRUE and ANY FALSE; otherwise a NULL x, or no decisive row
// while q has a NULL, gives NULL.
type DecorrelateCompare struct{}

var _ Rule = DecorrelateCompare{}

// Name of the rule.
func (DecorrelateCompare) Name() string { return "decorrelate_compare" }

// Apply rewrites an ApplyCompare.
func (r DecorrelateCompare) Apply(n Node) (Node, bool, error) { return tryRewrite(n, r.rewrite) }

func (DecorrelateCompare) rewrite(n Node) (Node, bool, error) {
	a, ok := readyApply(n, ApplyCompare)
	if !ok {
		return n, false, nil
	}
	if correlated(a.Sub) && globalAggregate(a.Sub) {
		n, value, err := compareOverAggregate(a, a.Op, a.All)
		if err == nil {
			n, err = applyOutput(a, n, value)
		}
		return n, err == nil, err
	}
	d := newDecorrelator(a)
	q := "ANY"
	if a.All {
		q = "ALL"
	}
	g, err := groupedValues(a, d, a.Op+" "+q)
	if err != nil {
		return nil, false, err
	}
	count, _ := expr.NewAggregate("count", nil, false)
	var aggs []*expr.Aggregate
	for _, name := range []string{"count", "min", "max"} {
		ag, err := expr.NewAggregate(name, []expr.Expr{g.v}, false)
		if err != nil {
			return nil, false, a.errorf("%s %s compares %s: %v", a.Op, q, typeName(g.v.Type()), err)
		}
		aggs = append(aggs, ag)
	}
	nk := g.nk
	right := &Aggregate{Input: g.node, Keys: g.keyCols(), KeyNames: keyNames(nk),
		Aggs: append([]*expr.Aggregate{count}, aggs...), AggNames: []string{"__rows", "__values", "__min", "__max"}}
	j := joinGrouped(a.Input, right, g)
	base := d.nOuter + nk
	rows := expr.Col(base, "__rows", types.BigInt)
	values := expr.Col(base+1, "__values", types.BigInt)
	mn := expr.Col(base+2, "__min", g.v.Type())
	mx := expr.Col(base+3, "__max", g.v.Type())
	x := a.Probe
	cmp := func(op string, l, r expr.Expr) expr.Expr {
		if err != nil {
			return nil
		}
		var e expr.Expr
		e, err = expr.Call(op, l, r)
		return e
	}
	// decisive: a row makes ANY TRUE, or ALL FALSE.
	var decisive expr.Expr
	switch op := a.Op; {
	case !a.All && (op == ">" || op == ">="):
		decisive = cmp(op, x, mn)
	case !a.All && (op == "<" || op == "<="):
		decisive = cmp(op, x, mx)
	case a.All && op == ">":
		decisive = cmp("<=", x, mx)
	case a.All && op == ">=":
		decisive = cmp("<", x, mx)
	case a.All && op == "<":
		decisive = cmp(">=", x, mn)
	case a.All && op == "<=":
		decisive = cmp(">", x, mn)
	default: // <> ANY, = ALL: some value differs from x
		decisive = cmp("or", cmp("<>", x, mn), cmp("<>", x, mx))
	}
	rowsOr0, err0 := rowCount(rows, g)
	empty := cmp("=", rowsOr0, expr.MustLit(int64(0), types.BigInt))
	xNull, err1 := expr.Call("is_null", x)
	hasNull := cmp("<", values, rows)
	for _, e := range []error{err0, err1, err} {
		if e != nil {
			return nil, false, a.errorf("%s %s: %v", a.Op, q, e)
		}
	}
	t, f := expr.MustLit(true, types.Boolean), expr.MustLit(false, types.Boolean)
	null := expr.MustLit(nil, types.Boolean)
	onEmpty, onDecisive, otherwise := f, t, f
	if a.All {
		onEmpty, onDecisive, otherwise = t, f, t
	}
	value, err := expr.Case(nil, []expr.Expr{empty, xNull, decisive, hasNull}, []expr.Expr{onEmpty, null, onDecisive, null}, otherwise)
	if err != nil {
		return nil, false, err
	}
	out, err := applyOutput(a, j, value)
	return out, err == nil, err
}
