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
