package plan

import (
	"sort"

	"sluice/internal/expr"
)

// pullApply decorrelates an Apply inside the subquery that its own rule
// deferred: its subquery reads this Apply's input, two levels out for it
// (s.y > t.v under an aggregate, in a subquery of a subquery of t). The
// outer columns it reads come in as a domain cross joined in front of
// its input, so it reads them as columns of its own input, and it is
// rewritten here; the domain is then matched to the outer row.
func (d *decorrelator) pullApply(t *Apply) (*corrPlan, error) {
	if t.deferred == nil {
		return nil, d.a.errorf("internal error: a nested subquery was not rewritten first")
	}
	in, err := d.pull(t.Input)
	if err != nil {
		return nil, err
	}
	if in.agg {
		return nil, t.deferred
	}
	// The outer columns the inner Apply reads: its depth-2 references,
	// and those its input's columns are computed from.
	seen := map[int]bool{}
	markOuter := func(e expr.Expr) {
		for _, i := range expr.Columns(e) {
			if i < d.nOuter {
				seen[i] = true
			}
		}
	}
	var probe expr.Expr
	if t.Probe != nil {
		probe = d.lift(t.Probe, in.out)
		markOuter(probe)
	}
	walkNodes(t.Sub, func(m Node) {
		_, _ = mapExprs(m, func(e expr.Expr) (expr.Expr, error) {
			expr.Walk(e, func(x expr.Expr) bool {
				if o, ok := x.(*expr.OuterRef); ok {
					switch {
					case o.Depth == 1 && o.Index < len(in.out):
						markOuter(in.out[o.Index])
					case o.Depth == 2:
						seen[o.Index] = true
					}
				}
				return true
			})
			return e, nil
		})
	})
	in2 := d.a.Input.Schema()
	var cols []expr.Expr
	idx := make([]int, 0, len(seen))
	for i := range seen {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		f := in2.Field(i)
		cols = append(cols, expr.Col(i, f.Name, f.Type))
	}
	dom, err := d.domainOf(cols)
	if err != nil {
		return nil, err
	}
	w := dom.width
	input := &Join{Left: dom.node, Right: in.node, Kind: CrossJoin}
	// The inner Apply's input columns, over the joined row and over input.
	resOut := shiftInner(in.out, d.nOuter, w)
	view := make([]expr.Expr, len(resOut))
	for i, e := range resOut {
		view[i] = d.innerOf(expr.Remap(e, dom.fromOuter))
	}
	sub, err := mapTree(t.Sub, func(e expr.Expr) expr.Expr {
		return expr.Transform(e, func(x expr.Expr) expr.Expr {
			o, ok := x.(*expr.OuterRef)
			if !ok {
				return x
			}
			switch {
			case o.Depth == 1 && o.Index < len(view):
				return asOuter(view[o.Index])
			case o.Depth == 2:
				return expr.Outer(1, dom.fromOuter[o.Index]-d.nOuter, o.Name, o.Type())
			case o.Depth > 2:
				return expr.Outer(o.Depth-1, o.Index, o.Name, o.Type())
			}
			return x
		})
	})
	if err != nil {
		return nil, err
	}
	na := *t
	na.Input, na.Sub, na.deferred = input, sub, nil
	if probe != nil {
		na.Probe = d.innerOf(expr.Remap(shiftInner([]expr.Expr{probe}, d.nOuter, w)[0], dom.fromOuter))
	}
	node, err := rewriteApply(&na)
	if err != nil {
		return nil, err
	}
	res := &corrPlan{node: node, out: resOut, preds: append(shiftInner(in.preds, d.nOuter, w), dom.preds...)}
	if t.Kind.AddsColumn() {
		at := d.nOuter + w + in.node.Schema().NumFields()
		res.out = append(res.out, expr.Col(at, t.Name, na.ValueType()))
	}
	return res, nil
}

// asOuter reads e, an expression over an Apply's input, from inside its
// subquery: columns become outer references, and outer references one
// level further out.
func asOuter(e expr.Expr) expr.Expr {
	return expr.Transform(e, func(x expr.Expr) expr.Expr {
		switch t := x.(type) {
		case *expr.Column:
			return expr.Outer(1, t.Index, t.Name, t.Type())
		case *expr.OuterRef:
			return expr.Outer(t.Depth+1, t.Index, t.Name, t.Type())
		}
		return x
	})
}

// mapTree applies fn to the expressions of every node of n's subtree.
func mapTree(n Node, fn func(expr.Expr) expr.Expr) (Node, error) {
	kids := n.Children()
	if len(kids) > 0 {
		nk := make([]Node, len(kids))
		for i, k := range kids {
			var err error
			if nk[i], err = mapTree(k, fn); err != nil {
				return nil, err
			}
		}
		var err error
		if n, err = n.WithChildren(nk...); err != nil {
			return nil, err
		}
	}
	return mapExprs(n, func(e expr.Expr) (expr.Expr, error) { return fn(e), nil })
}

// rewriteApply runs the rule of a's kind on it, now.
func rewriteApply(a *Apply) (Node, error) {
	var rewrite func(Node) (Node, bool, error)
	switch a.Kind {
	case ApplyExists:
		rewrite = DecorrelateExists{}.rewrite
	case ApplyIn:
		rewrite = DecorrelateIn{}.rewrite
	case ApplyScalar:
		rewrite = DecorrelateScalar{}.rewrite
	case ApplyExistsValue:
		rewrite = DecorrelateExistsValue{}.rewrite
	case ApplyInValue:
		rewrite = DecorrelateInValue{}.rewrite
	case ApplyCompare:
		rewrite = DecorrelateCompare{}.rewrite
	}
	out, changed, err := rewrite(a)
	if err != nil {
		return nil, err
	}
	if !changed {
		return nil, a.errorf("internal error: a nested subquery could not be rewritten")
	}
	return out, nil
}
