package plan

import (
	"sluice/internal/expr"
	"sluice/internal/types"
)

func (d *decorrelator) pullAggregate(t *Aggregate) (*corrPlan, error) {
	c, err := d.pull(t.Input)
	if err != nil {
		return nil, err
	}
	if c.agg {
		return nil, d.a.errorf("an aggregate over a correlated aggregate is not supported in a subquery")
	}
	if c, err = d.domainize(c); err != nil {
		return nil, err
	}
	// Outer columns in the keys or the aggregates' arguments come in as
	// a domain: the groups are then per outer value.
	var outerReads []expr.Expr
	for _, k := range t.Keys {
		outerReads = append(outerReads, d.lift(k, c.out))
	}
	for _, a := range t.Aggs {
		for _, x := range a.Args {
			outerReads = append(outerReads, d.lift(x, c.out))
		}
	}
	fromOuter := map[int]int{}
	for _, e := range outerReads {
		if d.readsOuter(e) {
			dom, err := d.domainOf(outerReads)
			if err != nil {
				return nil, err
			}
			c, fromOuter = d.withDomain(c, dom), dom.fromOuter
			break
		}
	}
	lift := func(x expr.Expr) expr.Expr { return expr.Remap(d.lift(x, c.out), fromOuter) }
	wrong := func(e expr.Expr) bool { return d.readsOuter(e) || expr.HasOuter(e, 1) }
	var keys []expr.Expr
	for _, k := range t.Keys {
		l := lift(k)
		if wrong(l) {
			return nil, d.a.errorf("an outer column in GROUP BY of a subquery is not supported")
		}
		keys = append(keys, d.innerOf(l))
	}
	names := append([]string{}, t.KeyNames...)
	aggs := make([]*expr.Aggregate, len(t.Aggs))
	for i, a := range t.Aggs {
		args := make([]expr.Expr, len(a.Args))
		for j, x := range a.Args {
			l := lift(x)
			if wrong(l) {
				return nil, d.a.errorf("an outer column inside an aggregate function of a subquery is not supported (found in %s)", a)
			}
			args[j] = d.innerOf(l)
		}
		var filter expr.Expr
		if a.Filtered {
			args, filter = args[:len(args)-1], args[len(args)-1]
		}
		if aggs[i], err = expr.NewFilteredAggregate(a.Name, args, a.Distinct, filter); err != nil {
			return nil, err
		}
	}
	nk := len(keys)
	var preds []expr.Expr
	seen := map[string]int{}
	for _, p := range c.preds {
		o, in, ok := d.corrEquality(p)
		if !ok {
			return nil, d.a.errorf("a correlated subquery used as a value may only compare outer columns with = (found another condition on them: %s)", p)
		}
		pos, dup := seen[exprKey(in)]
		if !dup {
			pos = len(keys)
			seen[exprKey(in)] = pos
			keys = append(keys, in)
			name := in.String()
			if col, ok := in.(*expr.Column); ok {
				name = col.Name
			}
			names = append(names, name)
		}
		eq, err := expr.Call("=", o, expr.Col(d.nOuter+pos, names[pos], in.Type()))
		if err != nil {
			return nil, err
		}
		preds = append(preds, eq)
	}
	agg := &Aggregate{Input: c.node, Keys: keys, KeyNames: names, Aggs: aggs, AggNames: t.AggNames}
	out := make([]expr.Expr, 0, nk+len(aggs))
	s := agg.Schema()
	for i := 0; i < nk; i++ {
		out = append(out, expr.Col(d.nOuter+i, s.Field(i).Name, s.Field(i).Type))
	}
	res := &corrPlan{node: agg, preds: preds}
	for j := range aggs {
		at := len(keys) + j
		out = append(out, expr.Col(d.nOuter+at, s.Field(at).Name, s.Field(at).Type))
	}
	res.out = out
	if nk > 0 && len(preds) > 0 {
		// Grouped by correlated columns only: one group per outer row
		// at most (Spark allows this), and none means no row (NULL).
		covered := true
		for _, k := range keys[:nk] {
			if _, ok := seen[exprKey(k)]; !ok {
				covered = false
			}
		}
		res.oneRow = covered
	}
	if nk == 0 && len(preds) > 0 {
		res.agg = true
		res.empty = map[int]expr.Expr{}
		for j, a := range aggs {
			if a.Name == "count" || a.Name == "count_if" {
				res.empty[d.nOuter+len(keys)+j] = expr.MustLit(int64(0), types.BigInt)
			}
		}
	}
	return res, nil
}

// corrEquality splits p into o = in: o reads only the outer row (outer
// columns, or an enclosing query's through outer references), in only
// the inner plan (over node).
func (d *decorrelator) corrEquality(p expr.Expr) (o, in expr.Expr, ok bool) {
	if !expr.HasOuter(p, 1) {
		return equiKeys(p, d.nOuter)
	}
	call, isCall := p.(*expr.CallExpr)
	if !isCall || call.Name != "=" || len(call.Args) != 2 {
		return nil, nil, false
	}
	outerOnly := func(e expr.Expr) bool {
		for _, i := range expr.Columns(e) {
			if i >= d.nOuter {
				return false
			}
		}
		return true
	}
	innerOnly := func(e expr.Expr) bool { return !d.readsOuter(e) && !expr.HasOuter(e, 1) }
	a, b := call.Args[0], call.Args[1]
	if innerOnly(a) && outerOnly(b) {
		a, b = b, a
	}
	if !outerOnly(a) || !innerOnly(b) || len(expr.Columns(b)) == 0 {
		return nil, nil, false
	}
	return a, d.innerOf(b), true
}

// splitCorr splits correlated conditions into equi-join keys (outer side,
// inner side over node) and the rest.
func (d *decorrelator) splitCorr(preds []expr.Expr) (lk, rk, residual []expr.Expr) {
	for _, p := range preds {
		// A key may read an enclosing query (an outer reference): the
		// rewrite of that query's Apply turns it into a join column.
		if o, in, ok := d.corrEquality(p); ok {
			lk, rk = append(lk, o), append(rk, in)
			continue
		}
		residual = append(residual, p)
	}
	return lk, rk, residual
}
