package plan

import (
	"sluice/internal/expr"
	"sluice/internal/types"
)

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
			inner := false
			for _, i := range expr.Columns(k.Expr) {
				inner = inner || i >= d.nOuter
			}
			if !inner {
				continue // one value per outer row: orders nothing
			}
			return nil, d.a.errorf("ORDER BY of a correlated subquery with LIMIT may not mix outer and inner columns in one key (%s)", k.Expr)
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
