package plan

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// singleValue wraps one column of n in scalar_subquery_value, which
// fails on a second row.
func singleValue(n Node, name string) (*Aggregate, error) {
	f := n.Schema().Field(0)
	one, err := expr.NewAggregate(functions.SingleValueName, []expr.Expr{expr.Col(0, f.Name, f.Type)}, false)
	if err != nil {
		return nil, err
	}
	return &Aggregate{Input: n, Aggs: []*expr.Aggregate{one}, AggNames: []string{name}}, nil
}

// applyOutput is the Apply's schema over the rewritten join: the input's
// columns, then value, in a Project the one above may read through.
func applyOutput(a *Apply, j Node, value expr.Expr) (Node, error) {
	if !arrow.TypeEqual(value.Type(), a.ValueType()) {
		var err error
		if value, err = expr.Cast(value, a.ValueType()); err != nil {
			return nil, err
		}
	}
	in := a.Input.Schema()
	exprs := make([]expr.Expr, 0, in.NumFields()+1)
	names := make([]string, 0, in.NumFields()+1)
	for i, f := range in.Fields() {
		exprs = append(exprs, expr.Col(i, f.Name, f.Type))
		names = append(names, f.Name)
	}
	exprs = append(exprs, value)
	names = append(names, a.Name)
	return &Project{Input: j, Exprs: exprs, Names: names, Inline: true}, nil
}

// groupedSub is the one column of a value subquery (IN, ANY/ALL) with
// its correlated keys: node yields keys..., value.
type groupedSub struct {
	node Node
	nk   int
	lk   []expr.Expr // the outer side of each key, over the Apply input
	v    expr.Expr   // the value column of node
}

func (g *groupedSub) keyCols() []expr.Expr {
	s := g.node.Schema()
	out := make([]expr.Expr, g.nk)
	for i := range out {
		out[i] = expr.Col(i, s.Field(i).Name, s.Field(i).Type)
	}
	return out
}

// groupedValues decorrelates a's subquery for a per-key aggregate of its
// value; what names the subquery form for errors.
func groupedValues(a *Apply, d *decorrelator, what string) (*groupedSub, error) {
	var c *corrPlan
	if !correlated(a.Sub) {
		sub, err := shiftDepth(a.Sub)
		if err != nil {
			return nil, err
		}
		c = d.plain(sub)
	} else {
		var err error
		if c, err = d.pullTop(a.Sub); err != nil {
			return nil, err
		}
		if c.agg {
			return nil, a.errorf("a correlated %s subquery over an aggregate without GROUP BY is not supported", what)
		}
		if c, err = d.domainize(c); err != nil {
			return nil, err
		}
	}
	lk, rk, res := d.splitCorr(c.preds)
	if len(res) > 0 {
		return nil, a.errorf("a correlated %s used as a value may only compare outer columns with = (found another condition on them)", what)
	}
	v := c.out[0]
	if d.readsOuter(v) || expr.HasOuter(v, 1) {
		return nil, a.errorf("an outer column in the SELECT list of a %s subquery used as a value is not supported", what)
	}
	exprs := append(append([]expr.Expr{}, rk...), d.innerOf(v))
	names := append(keyNames(len(rk)), "__value")
	if len(rk) == 0 {
		if col, ok := v.(*expr.Column); ok && col.Index == d.nOuter && c.node.Schema().NumFields() == 1 {
			// The subquery's own column: no Project needed.
			return &groupedSub{node: c.node, v: d.innerOf(v)}, nil
		}
	}
	node := &Project{Input: c.node, Exprs: exprs, Names: names}
	return &groupedSub{node: node, nk: len(rk), lk: lk, v: expr.Col(len(rk), "__value", v.Type())}, nil
}

// joinGrouped joins right (keys first) onto input by g's keys: a cross
// join when there are none.
func joinGrouped(input, right Node, g *groupedSub) *Join {
	if g.nk == 0 {
		return &Join{Left: input, Right: right, Kind: CrossJoin}
	}
	return &Join{Left: input, Right: right, Kind: LeftJoin, LeftKeys: g.lk, RightKeys: g.keyCols()}
}

func keyNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "__key" + itoa(i+1)
	}
	return out
}

// rowCount is the __rows column over the joined row: NULL (no group)
// reads as 0.
func rowCount(col expr.Expr, g *groupedSub) (expr.Expr, error) {
	if g.nk == 0 {
		return col, nil
	}
	return expr.Call("coalesce", col, expr.MustLit(int64(0), types.BigInt))
}

// readyApply returns n as an Apply of kind whose subquery holds no Apply
// of its own: inner subqueries are rewritten first (in an earlier pass
// when another rule owns them), so correlation is read from joins only;
// a deferred one is left for this Apply's rewrite (pullApply).
func readyApply(n Node, kind ApplyKind) (*Apply, bool) {
	a, ok := n.(*Apply)
	if !ok || a.Kind != kind || a.deferred != nil {
		return nil, false
	}
	nested := false
	walkNodes(a.Sub, func(m Node) {
		if in, ok := m.(*Apply); ok && in.deferred == nil {
			nested = true
		}
	})
	return a, !nested
}

// tryRewrite runs a decorrelation rule's rewrite on n. An Apply whose
// subquery reads a query further out, that the rewrite refuses, is kept
// (marked deferred) for the enclosing Apply's rewrite, which can bring
// those columns in.
func tryRewrite(n Node, rewrite func(Node) (Node, bool, error)) (Node, bool, error) {
	out, changed, err := rewrite(n)
	var user *Error
	if a, ok := n.(*Apply); ok && err != nil && errors.As(err, &user) && readsFurtherOut(a.Sub) {
		c := *a
		c.deferred = err
		return &c, true, nil
	}
	return out, changed, err
}

// readsFurtherOut reports whether n reads a query beyond the one its
// Apply is in (an outer reference of depth 2 or more).
func readsFurtherOut(n Node) bool {
	found := false
	walkNodes(n, func(m Node) {
		_, _ = mapExprs(m, func(e expr.Expr) (expr.Expr, error) {
			found = found || expr.HasOuter(e, 2)
			return e, nil
		})
	})
	return found
}

// leftApply is the error for an Apply no rule rewrote, if any is left.
func leftApply(n Node) error {
	var err error
	walkNodes(n, func(m Node) {
		if a, ok := m.(*Apply); ok && err == nil {
			err = a.deferred
			if err == nil {
				err = fmt.Errorf("internal error: a subquery was not rewritten into joins: %s", a)
			}
		}
	})
	return err
}

// globalAggregate reports whether n yields exactly one row before its
// HAVING: an aggregate without GROUP BY under projections, filters and
// orderings only.
func globalAggregate(n Node) bool {
	for {
		switch t := n.(type) {
		case *Aggregate:
			return len(t.Keys) == 0
		case *Project, *Filter, *Sort, *Distinct:
			n = n.Children()[0]
		case *Limit:
			if t.N == 0 || t.Offset > 0 {
				return false
			}
			n = t.Input
		default:
			return false
		}
	}
}

// existsOverAggregate rewrites EXISTS (q) where q aggregates without
// GROUP BY: q has its one row unless HAVING rejects it, so EXISTS is
// whether (SELECT TRUE FROM q) is TRUE. It returns the scalar rewrite
// (the input's columns, then that value) and the condition over it.
func existsOverAggregate(a *Apply) (Node, expr.Expr, error) {
	sub := &Project{Input: a.Sub, Exprs: []expr.Expr{expr.MustLit(true, types.Boolean)}, Names: []string{"__exists"}}
	name := a.Name
	if name == "" {
		name = "__exists"
	}
	scalar := &Apply{Input: a.Input, Sub: sub, Kind: ApplyScalar, Name: name, At: a.At}
	n, _, err := DecorrelateScalar{}.rewrite(scalar)
	if err != nil {
		return nil, nil, err
	}
	col := expr.Col(a.Input.Schema().NumFields(), name, types.Boolean)
	cond, err := expr.Call("coalesce", col, expr.MustLit(false, types.Boolean))
	return n, cond, err
}

// compareOverAggregate rewrites x op ANY (q), or op ALL, where q
// aggregates without GROUP BY (x IN (q) is = ANY): q has one row v
// unless HAVING rejects it, so the value is x op v, and with no row
// FALSE for ANY, TRUE for ALL. It returns the scalar rewrite (the input's
// columns, then q's row as a struct, NULL for none) and the value over it.
func compareOverAggregate(a *Apply, op string, all bool) (Node, expr.Expr, error) {
	f := a.Sub.Schema().Field(0)
	row, err := expr.Call("named_struct", expr.MustLit("v", types.String), expr.Col(0, f.Name, f.Type))
	if err != nil {
		return nil, nil, err
	}
	name := a.Name
	if name == "" {
		name = "__row"
	}
	sub := &Project{Input: a.Sub, Exprs: []expr.Expr{row}, Names: []string{name}}
	scalar := &Apply{Input: a.Input, Sub: sub, Kind: ApplyScalar, Name: name, At: a.At}
	n, _, err := DecorrelateScalar{}.rewrite(scalar)
	if err != nil {
		return nil, nil, err
	}
	col := expr.Col(a.Input.Schema().NumFields(), name, row.Type())
	v, err := expr.Field(col, "v")
	if err != nil {
		return nil, nil, err
	}
	cmp, err := expr.Call(op, a.Probe, v)
	if err != nil {
		return nil, nil, a.errorf("%s compares %s with %s: %v", op, typeName(a.Probe.Type()), typeName(v.Type()), err)
	}
	none, err := expr.Call("is_null", col)
	if err != nil {
		return nil, nil, err
	}
	value, err := expr.Case(nil, []expr.Expr{none}, []expr.Expr{expr.MustLit(all, types.Boolean)}, cmp)
	return n, value, err
}

// keepWhere filters n (the input's columns, then more) by cond and keeps
// the input's columns: a condition Apply's result.
func keepWhere(a *Apply, n Node, cond expr.Expr) Node {
	in := a.Input.Schema()
	keep := &Project{Input: &Filter{Input: n, Pred: cond}}
	for i, f := range in.Fields() {
		keep.Exprs = append(keep.Exprs, expr.Col(i, f.Name, f.Type))
		keep.Names = append(keep.Names, f.Name)
	}
	return keep
}

// notIf is e, negated when not is set.
func notIf(not bool, e expr.Expr) (expr.Expr, error) {
	if !not {
		return e, nil
	}
	return expr.Call("not", e)
}
