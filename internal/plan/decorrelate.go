package plan

import (
	"sort"

	"sluice/internal/expr"
)

// The decorrelation rules share this: pulling a subquery's correlation
// up out of its plan. The result is over the "joined row": the Apply
// input's nOuter columns, then the columns of the decorrelated plan, as a
// join of the two lays them out. A depth-1 outer reference becomes a
// column below nOuter; deeper ones move one level in (they now belong
// to the query the Apply is in).

// corrPlan is a subquery plan with its correlation taken out.
type corrPlan struct {
	node Node
	// out is each column of the original plan, over the joined row; one
	// that reads outer columns is computed above the join.
	out []expr.Expr
	// preds are the correlated conditions, over the joined row.
	preds []expr.Expr
	// agg is set when a global aggregate was grouped by its correlated
	// columns: an outer row without inner rows now finds no group, where
	// the subquery gives one row (the aggregates over no rows).
	agg bool
	// having are the conditions above that aggregate (scalar subqueries
	// only): a group they reject yields NULL, not "no group".
	having []expr.Expr
	// empty is what an inner column of the joined row holds for the
	// aggregate over no rows (count 0); others are NULL.
	empty map[int]expr.Expr
	// order is the subquery's ORDER BY (over the joined row), kept for a
	// LIMIT above it.
	order []SortKey
	// oneRow: a LIMIT 1 per outer row was applied.
	oneRow bool
}

type decorrelator struct {
	a      *Apply
	nOuter int
	// dupFree: the consumer ignores duplicate rows (EXISTS, IN, ANY/ALL).
	dupFree bool
	// exists: the consumer only asks whether a row exists.
	exists bool
	// scalar: HAVING above a global aggregate stays a condition (having).
	scalar bool
}

func newDecorrelator(a *Apply) *decorrelator {
	d := &decorrelator{a: a, nOuter: a.Input.Schema().NumFields()}
	switch a.Kind {
	case ApplyScalar:
		d.scalar = true
	case ApplyExists, ApplyExistsValue:
		d.dupFree, d.exists = true, true
	default:
		d.dupFree = true
	}
	return d
}

// correlated reports whether n's subtree reads an enclosing query: the
// Apply's input, or (deeper references) a query around that, whose
// conditions then go up with the join for the enclosing Apply's rewrite.
func correlated(n Node) bool {
	found := false
	walkNodes(n, func(m Node) {
		_, _ = mapExprs(m, func(e expr.Expr) (expr.Expr, error) {
			found = found || expr.HasOuter(e, 1)
			return e, nil
		})
	})
	return found
}

func walkNodes(n Node, fn func(Node)) {
	fn(n)
	for _, c := range n.Children() {
		walkNodes(c, fn)
	}
}

// shiftDepth moves every outer reference of n's subtree one level in.
func shiftDepth(n Node) (Node, error) {
	kids := n.Children()
	if len(kids) > 0 {
		nk := make([]Node, len(kids))
		for i, k := range kids {
			var err error
			if nk[i], err = shiftDepth(k); err != nil {
				return nil, err
			}
		}
		var err error
		if n, err = n.WithChildren(nk...); err != nil {
			return nil, err
		}
	}
	return mapExprs(n, func(e expr.Expr) (expr.Expr, error) { return lowerOuter(e), nil })
}

func lowerOuter(e expr.Expr) expr.Expr {
	if !expr.HasOuter(e, 2) {
		return e
	}
	return expr.Transform(e, func(x expr.Expr) expr.Expr {
		if o, ok := x.(*expr.OuterRef); ok && o.Depth >= 2 {
			return expr.Outer(o.Depth-1, o.Index, o.Name, o.Type())
		}
		return x
	})
}

// lift rewrites e, over a node's input, over the joined row: input
// column i becomes out[i], a depth-1 outer reference an outer column.
func (d *decorrelator) lift(e expr.Expr, out []expr.Expr) expr.Expr {
	return expr.Transform(e, func(x expr.Expr) expr.Expr {
		switch t := x.(type) {
		case *expr.Column:
			if t.Index >= 0 && t.Index < len(out) {
				return out[t.Index]
			}
		case *expr.OuterRef:
			if t.Depth == 1 {
				return expr.Col(t.Index, t.Name, t.Type())
			}
			return expr.Outer(t.Depth-1, t.Index, t.Name, t.Type())
		}
		return x
	})
}

// readsOuter reports whether e (over the joined row) reads an outer column.
func (d *decorrelator) readsOuter(e expr.Expr) bool {
	for _, i := range expr.Columns(e) {
		if i < d.nOuter {
			return true
		}
	}
	return false
}

// innerOf rewrites e (over the joined row, no outer columns) over node.
func (d *decorrelator) innerOf(e expr.Expr) expr.Expr {
	shift := map[int]int{}
	for _, i := range expr.Columns(e) {
		shift[i] = i - d.nOuter
	}
	return expr.Remap(e, shift)
}

func (d *decorrelator) plain(n Node) *corrPlan {
	s := n.Schema()
	c := &corrPlan{node: n, out: make([]expr.Expr, s.NumFields())}
	for i, f := range s.Fields() {
		c.out[i] = expr.Col(d.nOuter+i, f.Name, f.Type)
	}
	return c
}

// pull takes the correlation out of n.
func (d *decorrelator) pull(n Node) (*corrPlan, error) {
	if !correlated(n) {
		m, err := shiftDepth(n)
		if err != nil {
			return nil, err
		}
		return d.plain(m), nil
	}
	switch t := n.(type) {
	case *Filter:
		return d.pullFilter(t)
	case *Project:
		return d.pullProject(t)
	case *Aggregate:
		return d.pullAggregate(t)
	case *Sort, *Limit, *Distinct:
		c, err := d.pull(n.Children()[0])
		if err != nil {
			return nil, err
		}
		return d.pullOrdering(n, c)
	case *Join:
		return d.pullJoin(t)
	case *Apply:
		return d.pullApply(t)
	case *Union:
		return d.pullUnion(t)
	}
	return nil, d.a.errorf("an outer column is not supported under %s in a subquery", nodeKind(n))
}

func (d *decorrelator) pullFilter(t *Filter) (*corrPlan, error) {
	c, err := d.pull(t.Input)
	if err != nil {
		return nil, err
	}
	var local []expr.Expr
	for _, p := range expr.SplitConjuncts(d.lift(t.Pred, c.out)) {
		switch {
		case c.agg && d.scalar:
			c.having = append(c.having, p)
		case d.readsOuter(p) || expr.HasOuter(p, 1):
			if c.agg {
				return nil, d.a.errorf("an outer column in HAVING is only supported in a scalar subquery")
			}
			c.preds = append(c.preds, p)
		default:
			local = append(local, d.innerOf(p))
		}
	}
	if len(local) > 0 {
		if c.agg {
			return nil, d.a.errorf("HAVING over a correlated aggregate without GROUP BY is only supported in a scalar subquery")
		}
		c.node = &Filter{Input: c.node, Pred: expr.AndAll(local)}
	}
	return c, nil
}

func (d *decorrelator) pullProject(t *Project) (*corrPlan, error) {
	c, err := d.pull(t.Input)
	if err != nil {
		return nil, err
	}
	in := c.node.Schema()
	var exprs []expr.Expr
	var names []string
	out := make([]expr.Expr, len(t.Exprs))
	empty := map[int]expr.Expr{}
	var deferred []int
	for i, e := range t.Exprs {
		l := d.lift(e, c.out)
		if d.readsOuter(l) || expr.HasOuter(l, 1) {
			out[i] = l
			deferred = append(deferred, i)
			continue
		}
		at := d.nOuter + len(exprs)
		exprs = append(exprs, d.innerOf(l))
		names = append(names, t.Names[i])
		out[i] = expr.Col(at, t.Names[i], l.Type())
		if c.agg {
			if v := emptyOf(l, c.empty); v != nil {
				empty[at] = v
			}
		}
	}
	// Keep the inner columns that what is computed later reads.
	need := map[int]bool{}
	mark := func(e expr.Expr) {
		for _, i := range expr.Columns(e) {
			if i >= d.nOuter {
				need[i] = true
			}
		}
	}
	for _, i := range deferred {
		mark(out[i])
	}
	for _, p := range c.preds {
		mark(p)
	}
	for _, p := range c.having {
		mark(p)
	}
	cols := make([]int, 0, len(need))
	for i := range need {
		cols = append(cols, i)
	}
	sort.Ints(cols)
	mapping := map[int]int{}
	for _, i := range cols {
		f := in.Field(i - d.nOuter)
		at := d.nOuter + len(exprs)
		exprs = append(exprs, expr.Col(i-d.nOuter, f.Name, f.Type))
		names = append(names, f.Name)
		mapping[i] = at
		if v, ok := c.empty[i]; ok {
			empty[at] = v
		}
	}
	for _, i := range deferred {
		out[i] = expr.Remap(out[i], mapping)
	}
	for i, p := range c.preds {
		c.preds[i] = expr.Remap(p, mapping)
	}
	for i, p := range c.having {
		c.having[i] = expr.Remap(p, mapping)
	}
	c.node = &Project{Input: c.node, Exprs: exprs, Names: names}
	c.out, c.empty = out, empty
	return c, nil
}

// emptyOf is e (over the joined row) over no rows: inner columns take
// their empty values (NULL unless given); nil when that is not a constant.
func emptyOf(e expr.Expr, empty map[int]expr.Expr) expr.Expr {
	v := emptySubst(e, empty, -1)
	folded, err := expr.Fold(v)
	if err != nil {
		return nil
	}
	if _, ok := folded.(*expr.Literal); !ok {
		return nil
	}
	return folded
}

// emptySubst replaces the columns of e at or past nOuter (the inner
// ones; all of them for nOuter -1) by their empty values.
func emptySubst(e expr.Expr, empty map[int]expr.Expr, nOuter int) expr.Expr {
	return expr.Transform(e, func(x expr.Expr) expr.Expr {
		c, ok := x.(*expr.Column)
		if !ok || c.Index < nOuter {
			return x
		}
		if v, ok := empty[c.Index]; ok {
			return v
		}
		null, err := expr.Lit(nil, c.Type())
		if err != nil {
			return x
		}
		return null
	})
}
