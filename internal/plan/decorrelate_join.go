package plan

import (
	"sort"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// pullJoin pulls the correlation out of a join inside the subquery. An
// inner join's correlated conditions go up with the rest. Where they
// cannot (the inner side of a semi, anti or left join reads the outer
// row), the outer columns they read come in as a join of their distinct
// values (the "domain") onto the join's preserved side, matched to the
// outer row NULL-safely above.
func (d *decorrelator) pullJoin(t *Join) (*corrPlan, error) {
	l, err := d.pull(t.Left)
	if err != nil {
		return nil, err
	}
	r, err := d.pull(t.Right)
	if err != nil {
		return nil, err
	}
	if l.agg || r.agg {
		return nil, d.a.errorf("a join over a correlated aggregate is not supported in a subquery")
	}
	nl := l.node.Schema().NumFields()
	nr := r.node.Schema().NumFields()
	// Right's joined row moves past left's columns.
	shiftR := map[int]int{}
	for i := 0; i < nr; i++ {
		shiftR[d.nOuter+i] = d.nOuter + nl + i
	}
	rOut := remapAll(r.out, shiftR)
	rPreds := remapAll(r.preds, shiftR)
	var conds []expr.Expr
	for i := range t.LeftKeys {
		eq, err := expr.Call("=", d.lift(t.LeftKeys[i], l.out), d.lift(t.RightKeys[i], rOut))
		if err != nil {
			return nil, err
		}
		conds = append(conds, eq)
	}
	if t.Residual != nil {
		conds = append(conds, expr.SplitConjuncts(d.lift(t.Residual, append(append([]expr.Expr{}, l.out...), rOut...)))...)
	}
	kind := t.Kind
	inner := func() bool { return kind == InnerJoin || kind == CrossJoin }
	corrConds := len(rPreds) > 0
	for _, c := range conds {
		corrConds = corrConds || d.readsOuter(c) || expr.HasOuter(c, 1)
	}
	if corrConds && kind == SemiJoin && d.dupFree {
		kind = InnerJoin // duplicates do not matter here
	}
	if len(l.preds) > 0 && (kind == RightJoin || kind == FullJoin) || corrConds && !inner() && (kind == RightJoin || kind == FullJoin) {
		return nil, d.a.errorf("an outer column is not supported in a %s join in a subquery", t.Kind)
	}
	lNode, lOut, preds := l.node, l.out, l.preds
	if corrConds && !inner() {
		// The inner side's conditions join the ON condition, which then
		// reads the outer columns from the domain instead.
		conds = append(conds, rPreds...)
		rPreds = nil
		var dom *domain
		if dom, err = d.domainOf(conds); err != nil {
			return nil, err
		}
		lNode = &Join{Left: dom.node, Right: l.node, Kind: CrossJoin}
		nl += dom.width
		lOut = shiftInner(lOut, d.nOuter, dom.width)
		preds = append(shiftInner(preds, d.nOuter, dom.width), dom.preds...)
		rOut = shiftInner(rOut, d.nOuter, dom.width)
		conds = remapAll(shiftInner(conds, d.nOuter, dom.width), dom.fromOuter)
	}
	j := &Join{Left: lNode, Right: r.node, Kind: kind}
	res := &corrPlan{node: j, preds: append(preds, rPreds...)}
	var residual []expr.Expr
	for _, cnd := range conds {
		if d.readsOuter(cnd) || expr.HasOuter(cnd, 1) {
			if !inner() {
				return nil, d.a.errorf("an outer column of a query two levels out is not supported in the ON condition of a %s join in a subquery", t.Kind)
			}
			res.preds = append(res.preds, cnd)
			continue
		}
		in := d.innerOf(cnd)
		if lk, rk, ok := equiKeys(in, nl); ok {
			j.LeftKeys = append(j.LeftKeys, lk)
			j.RightKeys = append(j.RightKeys, rk)
			continue
		}
		residual = append(residual, in)
	}
	if j.Kind == CrossJoin && len(j.LeftKeys) > 0 {
		j.Kind = InnerJoin
	}
	j.Residual = expr.AndAll(residual)
	if t.Kind.LeftOnly() {
		res.out = lOut
	} else {
		res.out = append(append([]expr.Expr{}, lOut...), rOut...)
	}
	return res, nil
}

// shiftInner moves the columns at or past from by n.
func shiftInner(es []expr.Expr, from, n int) []expr.Expr {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		m := map[int]int{}
		for _, c := range expr.Columns(e) {
			if c >= from {
				m[c] = c + n
			}
		}
		out[i] = expr.Remap(e, m)
	}
	return out
}

// domain is the distinct values of the outer columns some conditions
// read, to be cross joined in front of the inner plan's columns.
type domain struct {
	node  Node
	width int
	// fromOuter reads each outer column from the domain instead.
	fromOuter map[int]int
	// preds match the domain to the outer row: NULL matches NULL.
	preds []expr.Expr
}

// domainOf builds the domain of the outer columns es read; callers move
// the inner columns past it (shiftInner) before reading fromOuter.
func (d *decorrelator) domainOf(es []expr.Expr) (*domain, error) {
	seen := map[int]bool{}
	for _, e := range es {
		for _, i := range expr.Columns(e) {
			if i < d.nOuter {
				seen[i] = true
			}
		}
	}
	cols := make([]int, 0, len(seen))
	for i := range seen {
		cols = append(cols, i)
	}
	sort.Ints(cols)
	in := d.a.Input.Schema()
	var exprs []expr.Expr
	var names []string
	dom := &domain{width: len(cols), fromOuter: map[int]int{}}
	for j, i := range cols {
		f := in.Field(i)
		exprs = append(exprs, expr.Col(i, f.Name, f.Type))
		names = append(names, f.Name)
		dom.fromOuter[i] = d.nOuter + j
		eqs, err := nullSafeEq(expr.Col(i, f.Name, f.Type), expr.Col(d.nOuter+j, f.Name, f.Type))
		if err != nil {
			return nil, err
		}
		dom.preds = append(dom.preds, eqs...)
	}
	dom.node = &Distinct{Input: &Project{Input: d.a.Input, Exprs: exprs, Names: names}}
	return dom, nil
}

// nullSafeEq is o IS NOT DISTINCT FROM v as hash-joinable equalities:
// both NULL or both equal.
func nullSafeEq(o, v expr.Expr) ([]expr.Expr, error) {
	side := func(e expr.Expr) (expr.Expr, expr.Expr, error) {
		isNull, err := expr.Call("is_null", e)
		if err != nil {
			return nil, nil, err
		}
		s, err := expr.Cast(e, types.String)
		if err != nil {
			return nil, nil, err
		}
		val, err := expr.Call("coalesce", s, expr.MustLit("", types.String))
		return isNull, val, err
	}
	on, ov, err := side(o)
	if err != nil {
		return nil, err
	}
	vn, vv, err := side(v)
	if err != nil {
		return nil, err
	}
	a, err := expr.Call("=", on, vn)
	if err != nil {
		return nil, err
	}
	b, err := expr.Call("=", ov, vv)
	if err != nil {
		return nil, err
	}
	return []expr.Expr{a, b}, nil
}

// domainize leaves c only equalities between outer and inner values as
// correlated conditions: the others move into c's plan, as an inner
// join of the domain of the outer columns they read with it, and the
// domain is matched to the outer row instead (NULL-safely). Grouping by
// the domain then gives each distinct outer value its own groups.
func (d *decorrelator) domainize(c *corrPlan) (*corrPlan, error) {
	var keep, move []expr.Expr
	for _, p := range c.preds {
		if _, _, ok := d.corrEquality(p); ok || !d.readsOuter(p) {
			keep = append(keep, p)
		} else {
			move = append(move, p)
		}
	}
	if len(move) == 0 {
		return c, nil
	}
	dom, err := d.domainOf(move)
	if err != nil {
		return nil, err
	}
	kept := *c
	kept.preds = keep
	out := d.withDomain(&kept, dom)
	var residual []expr.Expr
	for _, cnd := range remapAll(shiftInner(move, d.nOuter, dom.width), dom.fromOuter) {
		residual = append(residual, d.innerOf(cnd))
	}
	if j := out.node.(*Join); len(residual) > 0 {
		j.Kind, j.Residual = InnerJoin, expr.AndAll(residual)
	}
	return out, nil
}

// withDomain puts dom in front of c's plan (a cross join) and matches it
// to the outer row: c's inner columns move past the domain's.
func (d *decorrelator) withDomain(c *corrPlan, dom *domain) *corrPlan {
	w := dom.width
	out := *c
	out.node = &Join{Left: dom.node, Right: c.node, Kind: CrossJoin}
	out.out = shiftInner(c.out, d.nOuter, w)
	out.having = shiftInner(c.having, d.nOuter, w)
	out.preds = append(shiftInner(c.preds, d.nOuter, w), dom.preds...)
	out.order = nil
	for _, k := range c.order {
		k.Expr = shiftInner([]expr.Expr{k.Expr}, d.nOuter, w)[0]
		out.order = append(out.order, k)
	}
	if c.empty != nil {
		out.empty = map[int]expr.Expr{}
		for i, v := range c.empty {
			out.empty[i+w] = v
		}
	}
	return &out
}

// pullUnion pulls the correlation out of UNION ALL branches: each branch
// takes the domain of the outer columns any branch reads, its own
// correlated conditions as that join's condition, and outputs the domain
// first, so the union is matched to the outer row by the domain alone.
func (d *decorrelator) pullUnion(t *Union) (*corrPlan, error) {
	var parts []*corrPlan
	var reads []expr.Expr
	for _, in := range t.Inputs {
		c, err := d.pull(in)
		if err != nil {
			return nil, err
		}
		if c.agg {
			return nil, d.a.errorf("a set operation over a correlated aggregate is not supported in a subquery")
		}
		parts = append(parts, c)
		reads = append(append(reads, c.preds...), c.out...)
	}
	dom, err := d.domainOf(reads)
	if err != nil {
		return nil, err
	}
	w := dom.width
	ds := dom.node.Schema()
	toInner := func(es []expr.Expr) ([]expr.Expr, error) {
		var out []expr.Expr
		for _, e := range remapAll(shiftInner(es, d.nOuter, w), dom.fromOuter) {
			if d.readsOuter(e) || expr.HasOuter(e, 1) {
				return nil, d.a.errorf("an outer column of a query two levels out is not supported under a set operation in a subquery")
			}
			out = append(out, d.innerOf(e))
		}
		return out, nil
	}
	var inputs []Node
	for _, c := range parts {
		conds, err := toInner(c.preds)
		if err != nil {
			return nil, err
		}
		outs, err := toInner(c.out)
		if err != nil {
			return nil, err
		}
		j := &Join{Left: dom.node, Right: c.node, Kind: CrossJoin}
		if len(conds) > 0 {
			j.Kind, j.Residual = InnerJoin, expr.AndAll(conds)
		}
		p := &Project{Input: j}
		for i, f := range ds.Fields() {
			p.Exprs = append(p.Exprs, expr.Col(i, f.Name, f.Type))
			p.Names = append(p.Names, f.Name)
		}
		for i, e := range outs {
			p.Exprs = append(p.Exprs, e)
			p.Names = append(p.Names, t.Schema().Field(i).Name)
		}
		inputs = append(inputs, p)
	}
	res := &corrPlan{node: &Union{Inputs: inputs}, preds: dom.preds}
	for i, f := range t.Schema().Fields() {
		res.out = append(res.out, expr.Col(d.nOuter+w+i, f.Name, f.Type))
	}
	return res, nil
}
