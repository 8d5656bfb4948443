package ppl

import (
	"sluice/internal/sql"
)

// streamStats adds running aggregates over the rows in the current sort
// order: agg OVER (PARTITION BY the by fields ORDER BY the sort, a frame
// of every row so far, or of the last window rows), without the row
// itself when current=false. With a window and by fields, global=true
// (the default) takes the last window rows of the whole stream and
// aggregates those of the row's group: a RANGE frame over the rows'
// overall row_number. dc (count distinct) is the size of collect_set.
func (t *translator) streamStats(c *StreamStats) error {
	at := c.At
	order, ok, err := t.currentOrder("streamstats")
	if err != nil {
		return err
	}
	natural := false
	if !ok {
		if order, natural, err = t.naturalOrder(at); err != nil {
			return err
		}
		if !natural {
			return errAt(at, "streamstats needs a sort before it: the rows' natural order (file and row order) is known only straight after the source and its where")
		}
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	var part []sql.Expr
	var anyNull sql.Expr
	for _, g := range c.By {
		var e sql.Expr
		if g.Span != nil {
			e, _, err = t.spanExpr(g.Span)
		} else {
			e, err = t.fixIf(g.Expr)
		}
		if err != nil {
			return err
		}
		part = append(part, e)
		isNull := &sql.Is{At: g.At, X: e, Is: sql.IsNull}
		if anyNull == nil {
			anyNull = isNull
		} else {
			anyNull = &sql.Binary{At: g.At, Op: sql.OpOr, L: anyNull, R: isNull}
		}
	}
	winOrder, unit := order, sql.FrameRows
	if c.ResetBefore != nil || c.ResetAfter != nil {
		if c.Window > 0 {
			return errAt(at, "streamstats reset_before/reset_after with window= is not supported")
		}
		if err := t.streamResets(c, cols, order, natural); err != nil {
			return err
		}
		part = append([]sql.Expr{col(at, "_seg")}, part...)
		if natural {
			order = []*sql.OrderItem{{At: at, Expr: col(at, "_nat_file")}, {At: at, Expr: col(at, "_nat_row")}}
		}
		winOrder = order
	}
	if c.Window > 0 && len(part) > 0 && !c.Local {
		// _rn numbers the rows in order, in a SELECT of its own.
		rn := &sql.Call{At: at, Name: "row_number", Over: &sql.WindowSpec{At: at, OrderBy: order}}
		var items []*sql.SelectItem
		if natural {
			// _file and _row are in scope only in the SELECT over the table.
			sel, _ := t.plain()
			for _, cc := range cols {
				items = append(items, item(col(at, cc), cc))
			}
			t.set(&sql.Select{At: at, Items: append(items, item(rn, "_rn")), From: sel.From, Where: sel.Where})
		} else {
			from := t.sub(at)
			for _, cc := range cols {
				items = append(items, item(col(at, from.Alias, cc), cc))
			}
			t.set(&sql.Select{At: at, Items: append(items, item(rn, "_rn")), From: from})
		}
		winOrder, unit = []*sql.OrderItem{{At: at, Expr: col(at, "_rn")}}, sql.FrameRange
		if natural {
			order = winOrder
		}
	}
	frame := &sql.WindowFrame{At: at, Unit: unit, Start: sql.FrameBound{Kind: sql.UnboundedPreceding}, End: sql.FrameBound{Kind: sql.CurrentRow}}
	if c.NoCurrent {
		frame.End = sql.FrameBound{Kind: sql.Preceding, Offset: intLit(at, 1)}
	}
	if c.Window > 0 {
		back := c.Window - 1
		if c.NoCurrent {
			back = c.Window
		}
		frame.Start = sql.FrameBound{Kind: sql.Preceding, Offset: intLit(at, back)}
		if back == 0 {
			frame.Start = sql.FrameBound{Kind: sql.CurrentRow}
		}
	}
	var names []string
	var exprs []sql.Expr
	for _, a := range c.Aggs {
		e, err := t.fixIf(a.Call)
		if err != nil {
			return err
		}
		call, ok := e.(*sql.Call)
		if !ok {
			return errAt(a.At, "streamstats: %s is not an aggregation", a.Name)
		}
		w := *call
		w.Over = &sql.WindowSpec{At: a.At, PartitionBy: part, OrderBy: winOrder, Frame: frame}
		var out sql.Expr = &w
		if w.Distinct {
			w.Distinct, w.Name, w.Star = false, "collect_set", false
			out = &sql.Call{At: a.At, Name: "size", Args: []sql.Expr{&w}}
		}
		if c.NoNullKeys && anyNull != nil {
			out = &sql.Case{At: a.At, Whens: []*sql.When{{At: a.At, Cond: anyNull, Then: &sql.Literal{At: a.At, Kind: sql.LitNull, Value: "NULL"}}}, Else: out}
		}
		names, exprs = append(names, a.Name), append(exprs, out)
	}
	if err := t.replaceOrAppendOf(at, cols, names, exprs); err != nil {
		return err
	}
	t.q.OrderBy = order
	return nil
}

// streamResets numbers the segments reset_before/reset_after cut the
// rows into, in order (over all rows, as the statistics start over for
// every group): _seg counts the rows up to this one where reset_before
// holds and those before it where reset_after holds. It is a column of
// a SELECT of its own (a window cannot hold another); with the natural
// order the file and row go along as _nat_file and _nat_row.
func (t *translator) streamResets(c *StreamStats, cols []string, order []*sql.OrderItem, natural bool) error {
	at := c.At
	flag := func(e sql.Expr) (sql.Expr, error) {
		e, err := t.fixIf(e)
		if err != nil {
			return nil, err
		}
		return &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: e, Then: intLit(at, 1)}}, Else: intLit(at, 0)}, nil
	}
	running := func(e sql.Expr, end sql.FrameBound) sql.Expr {
		sum := &sql.Call{At: at, Name: "sum", Args: []sql.Expr{e}, Over: &sql.WindowSpec{At: at, OrderBy: order,
			Frame: &sql.WindowFrame{At: at, Unit: sql.FrameRows, Start: sql.FrameBound{Kind: sql.UnboundedPreceding}, End: end}}}
		return &sql.Call{At: at, Name: "coalesce", Args: []sql.Expr{sum, intLit(at, 0)}}
	}
	var seg sql.Expr = intLit(at, 0)
	if c.ResetBefore != nil {
		f, err := flag(c.ResetBefore)
		if err != nil {
			return err
		}
		seg = running(f, sql.FrameBound{Kind: sql.CurrentRow})
	}
	if c.ResetAfter != nil {
		f, err := flag(c.ResetAfter)
		if err != nil {
			return err
		}
		seg = &sql.Binary{At: at, Op: sql.OpAdd, L: seg, R: running(f, sql.FrameBound{Kind: sql.Preceding, Offset: intLit(at, 1)})}
	}
	var items []*sql.SelectItem
	if natural {
		// _file and _row are in scope only in the SELECT over the table.
		sel, _ := t.plain()
		for _, cc := range cols {
			items = append(items, item(col(at, cc), cc))
		}
		items = append(items, item(order[0].Expr, "_nat_file"), item(order[1].Expr, "_nat_row"), item(seg, "_seg"))
		t.set(&sql.Select{At: at, Items: items, From: sel.From, Where: sel.Where})
		return nil
	}
	from := t.sub(at)
	for _, cc := range cols {
		items = append(items, item(col(at, from.Alias, cc), cc))
	}
	t.set(&sql.Select{At: at, Items: append(items, item(seg, "_seg")), From: from})
	return nil
}
