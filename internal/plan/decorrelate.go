package plan

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
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

// pullTop is pull for the subquery's root: a Project there only
// relabels out (its values are computed over the joined row), and
// sorting, DISTINCT and LIMIT go where the consumer does not see them.
func (d *decorrelator) pullTop(n Node) (*corrPlan, error) {
	if !correlated(n) {
		m, err := shiftDepth(n)
		if err != nil {
			return nil, err
		}
		return d.plain(m), nil
	}
	switch t := n.(type) {
	case *Project:
		c, err := d.pullTop(t.Input)
		if err != nil {
			return nil, err
		}
		out := make([]expr.Expr, len(t.Exprs))
		for i, e := range t.Exprs {
			out[i] = d.lift(e, c.out)
		}
		c.out = out
		return c, nil
	case *Sort:
		c, err := d.pullTop(t.Input)
		if err != nil {
			return nil, err
		}
		c.order = nil
		for _, k := range t.Keys {
			k.Expr = d.lift(k.Expr, c.out)
			c.order = append(c.order, k)
		}
		return c, nil
	case *Limit:
		c, err := d.pullTop(t.Input)
		if err != nil {
			return nil, err
		}
		if t.Offset == 0 && t.N != 0 && (c.agg || d.exists) {
			return c, nil // the one aggregate row, or EXISTS's first row
		}
		return d.limitPerRow(t, c)
	case *Distinct:
		c, err := d.pullTop(t.Input)
		if err != nil {
			return nil, err
		}
		return d.pullOrdering(n, c)
	}
	return d.pull(n)
}

// limitPerRow applies LIMIT and OFFSET per outer row: the rows of each
// correlated key are numbered (in the subquery's ORDER BY), and those
// past the limit dropped.
func (d *decorrelator) limitPerRow(t *Limit, c *corrPlan) (*corrPlan, error) {
	if c.agg {
		return nil, d.a.errorf("OFFSET or LIMIT 0 over an aggregate is not supported in a correlated subquery")
	}
	c, err := d.domainize(c)
	if err != nil {
		return nil, err
	}
	_, rk, res := d.splitCorr(c.preds)
	if len(res) > 0 {
		return nil, d.a.errorf("LIMIT in a correlated subquery is not supported with this condition on outer columns (%s)", res[0])
	}
	var order []SortKey
	for _, k := range c.order {
		if d.readsOuter(k.Expr) || expr.HasOuter(k.Expr, 1) {
			continue // one value per outer row: orders nothing
		}
		k.Expr = d.innerOf(k.Expr)
		order = append(order, k)
	}
	rn, err := expr.NewWindowFunc("row_number", nil, false)
	if err != nil {
		return nil, err
	}
	w := &Window{Input: c.node, PartitionBy: rk, OrderBy: order, Funcs: []*expr.WindowFunc{rn},
		Frames: []expr.WindowFrame{expr.WholePartition}, Names: []string{"__row"}}
	col := expr.Col(c.node.Schema().NumFields(), "__row", rn.Type())
	var conds []expr.Expr
	if t.Offset > 0 {
		gt, err := expr.Call(">", col, expr.MustLit(t.Offset, types.BigInt))
		if err != nil {
			return nil, err
		}
		conds = append(conds, gt)
	}
	if t.N >= 0 {
		le, err := expr.Call("<=", col, expr.MustLit(t.Offset+t.N, types.BigInt))
		if err != nil {
			return nil, err
		}
		conds = append(conds, le)
	}
	c.node = w
	if len(conds) > 0 {
		c.node = &Filter{Input: w, Pred: expr.AndAll(conds)}
	}
	c.oneRow = t.N == 1
	c.order = nil
	return c, nil
}

// pullOrdering decides what ORDER BY, LIMIT and DISTINCT above a
// correlated plan become: nothing where the consumer cannot tell.
func (d *decorrelator) pullOrdering(n Node, c *corrPlan) (*corrPlan, error) {
	switch t := n.(type) {
	case *Sort:
		if c.agg || d.dupFree {
			return c, nil // one row per outer row, or order unseen
		}
	case *Distinct:
		if c.agg || d.dupFree {
			return c, nil
		}
	case *Limit:
		if t.Offset == 0 && t.N != 0 && (c.agg || d.exists) {
			return c, nil // the one aggregate row, or EXISTS's first row
		}
		return nil, d.a.errorf("LIMIT and OFFSET are not supported in a correlated subquery, except LIMIT n (n >= 1) over an aggregate without GROUP BY or under EXISTS")
	}
	return nil, d.a.errorf("%s over correlated rows is not supported in this subquery", nodeKind(n))
}

func nodeKind(n Node) string {
	switch n.(type) {
	case *Sort:
		return "ORDER BY"
	case *Distinct:
		return "DISTINCT"
	case *Limit:
		return "LIMIT"
	case *Aggregate:
		return "GROUP BY"
	case *Union:
		return "a set operation"
	case *Join:
		return "a join"
	}
	return "this clause"
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

// emptySubst replaces the inner columns (index >= nOuter; all when
// nOuter < 0 is given as -1 and no column is outer) of e by their empty
// values.
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
	wrong := func(e expr.Expr) bool { return d.readsOuter(e) || expr.HasOuter(e, 1) }
	var keys []expr.Expr
	for _, k := range t.Keys {
		l := d.lift(k, c.out)
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
			l := d.lift(x, c.out)
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
		pos, dup := seen[in.String()]
		if !dup {
			pos = len(keys)
			seen[in.String()] = pos
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
			if _, ok := seen[k.String()]; !ok {
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
// when another rule owns them), so correlation is read from joins only.
func readyApply(n Node, kind ApplyKind) (*Apply, bool) {
	a, ok := n.(*Apply)
	if !ok || a.Kind != kind {
		return nil, false
	}
	nested := false
	walkNodes(a.Sub, func(m Node) {
		if _, ok := m.(*Apply); ok {
			nested = true
		}
	})
	return a, !nested
}
