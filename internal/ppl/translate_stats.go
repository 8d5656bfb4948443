package ppl

import (
	"fmt"
	"strconv"
	"strings"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// spanUnits maps a span's unit to an interval unit; months, quarters
// and years are calendar units that only date_trunc can bucket.
var spanUnits = map[string]string{
	"ms": "milliseconds", "millisecond": "milliseconds", "milliseconds": "milliseconds",
	"s": "seconds", "sec": "seconds", "second": "seconds", "seconds": "seconds",
	"m": "minutes", "min": "minutes", "minute": "minutes", "minutes": "minutes",
	"h": "hours", "hour": "hours", "hours": "hours",
	"d": "days", "day": "days", "days": "days",
	"w": "weeks", "week": "weeks", "weeks": "weeks",
}

var calendarUnits = map[string]string{
	"M": "MONTH", "month": "MONTH", "months": "MONTH",
	"q": "QUARTER", "quarter": "QUARTER", "quarters": "QUARTER",
	"y": "YEAR", "year": "YEAR", "years": "YEAR",
}

// spanExpr is the bucket of a span: floor(x / n) * n for numbers, the
// tumbling window for times (window reports whether it is one, whose
// start is the bucket).
func (t *translator) spanExpr(sp *Span) (e sql.Expr, window bool, err error) {
	f, err := t.fixIf(sp.Field)
	if err != nil {
		return nil, false, err
	}
	at := sp.At
	if sp.Unit == "" {
		size := numberLiteral(token{text: sp.Size, pos: at})
		floor := &sql.Call{At: at, Name: "floor", Args: []sql.Expr{&sql.Binary{At: at, Op: sql.OpDiv, L: f, R: size}}}
		return &sql.Binary{At: at, Op: sql.OpMul, L: floor, R: size}, false, nil
	}
	if cal, ok := calendarUnits[sp.Unit]; ok || calendarUnits[strings.ToLower(sp.Unit)] != "" && len(sp.Unit) > 1 {
		if !ok {
			cal = calendarUnits[strings.ToLower(sp.Unit)]
		}
		if sp.Size != "1" {
			return nil, false, errAt(at, "span %s%s: calendar spans (months, quarters, years) must have size 1", sp.Size, sp.Unit)
		}
		return &sql.Call{At: at, Name: "date_trunc", Args: []sql.Expr{strLit(at, cal), f}}, false, nil
	}
	unit, ok := spanUnits[sp.Unit]
	if !ok {
		unit, ok = spanUnits[strings.ToLower(sp.Unit)]
	}
	if !ok {
		return nil, false, errAt(at, "unknown span unit %q (want ms, s, m, h, d, w, M, q or y)", sp.Unit)
	}
	n, err := strconv.ParseFloat(sp.Size, 64)
	if err != nil || n <= 0 {
		return nil, false, errAt(at, "span size %q must be a positive number", sp.Size)
	}
	if unit == "weeks" {
		unit, sp.Size = "days", strconv.FormatFloat(n*7, 'f', -1, 64)
	}
	return &sql.Call{At: at, Name: "tumble", Args: []sql.Expr{f, strLit(at, sp.Size+" "+unit)}}, true, nil
}

// stats: aggregations first, then the by fields, as PPL prints them. A
// time span groups by a tumbling window (so a stream can close it) and
// an outer SELECT keeps the window's start.
func (t *translator) stats(c *Stats) error {
	if c.NoNullKeys && len(c.By) > 0 {
		var keys []sql.Expr
		for _, g := range c.By {
			if g.Span != nil {
				keys = append(keys, g.Span.Field)
			} else {
				keys = append(keys, g.Expr)
			}
		}
		if err := t.where(&Where{At: c.At, Cond: allNotNull(c.At, keys)}); err != nil {
			return err
		}
	}
	var items []*sql.SelectItem
	var groups []sql.Expr
	var outer []*sql.SelectItem
	windowed := false
	for i, a := range c.Aggs {
		e, err := t.fixIf(a.Call)
		if err != nil {
			return err
		}
		inner := fmt.Sprintf("_a%d", i)
		items = append(items, item(e, inner))
		outer = append(outer, item(col(a.At, inner), a.Name))
	}
	for i, g := range c.By {
		var e sql.Expr
		var err error
		window := false
		if g.Span != nil {
			e, window, err = t.spanExpr(g.Span)
		} else {
			e, err = t.fixIf(g.Expr)
		}
		if err != nil {
			return err
		}
		windowed = windowed || window
		inner := fmt.Sprintf("_g%d", i)
		groups = append(groups, e)
		items = append(items, item(e, inner))
		if window {
			outer = append(outer, item(col(g.At, inner, "start"), g.Name))
		} else {
			outer = append(outer, item(col(g.At, inner), g.Name))
		}
	}
	inner := &sql.Select{At: c.At, Items: items, GroupBy: groups}
	if sel, ok := t.plain(); ok && isStarOnly(sel) {
		inner.From, inner.Where = sel.From, sel.Where
	} else {
		inner.From = t.sub(c.At)
	}
	t.set(inner)
	t.set(&sql.Select{At: c.At, Items: outer, From: t.sub(c.At)})
	return nil
}

// eventStats adds each row's group aggregates: agg(...) OVER (PARTITION
// BY the by fields), one new field per aggregation (or replacing one of
// that name).
func (t *translator) eventStats(c *EventStats) error {
	var part []sql.Expr
	for _, g := range c.By {
		var e sql.Expr
		var err error
		if g.Span != nil {
			e, _, err = t.spanExpr(g.Span)
		} else {
			e, err = t.fixIf(g.Expr)
		}
		if err != nil {
			return err
		}
		part = append(part, e)
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
			return errAt(a.At, "eventstats: %s is not an aggregation", a.Name)
		}
		w := *call
		w.Over = &sql.WindowSpec{At: a.At, PartitionBy: part}
		var x sql.Expr = &w
		if c.NoNullKeys && len(part) > 0 {
			x = &sql.Case{At: a.At, Whens: []*sql.When{{At: a.At, Cond: allNotNull(a.At, part), Then: x}}}
		}
		names, exprs = append(names, a.Name), append(exprs, x)
	}
	return t.replaceOrAppend(c.At, names, exprs)
}

// trendline adds simple moving averages: avg over the N rows up to this
// one in the sort order, NULL until there are N.
func (t *translator) trendline(c *Trendline) error {
	var order []*sql.OrderItem
	if len(c.Sort) == 0 {
		// The sort before trendline, else the natural order.
		nat, ok, err := t.currentOrder("trendline")
		if err == nil && !ok {
			nat, ok, err = t.naturalOrder(c.At)
		}
		if err != nil {
			return err
		}
		if !ok {
			return errAt(c.At, "trendline needs a sort (sort <field> before or in it): the rows' natural order (file and row order) is known only straight after the source and its where")
		}
		order = nat
	}
	for _, k := range c.Sort {
		e, err := t.fixIf(k.Expr)
		if err != nil {
			return err
		}
		order = append(order, &sql.OrderItem{At: e.Pos(), Expr: e, Desc: k.Desc})
	}
	// Rows where a field is NULL leave the output, as in OpenSearch.
	for _, tr := range c.Trends {
		f, err := t.fixIf(tr.Field)
		if err != nil {
			return err
		}
		if err := t.where(&Where{At: tr.At, Cond: &sql.Is{At: tr.At, X: f, Not: true, Is: sql.IsNull}}); err != nil {
			return err
		}
	}
	var names []string
	var exprs []sql.Expr
	for _, tr := range c.Trends {
		f, err := t.fixIf(tr.Field)
		if err != nil {
			return err
		}
		win := func() *sql.WindowSpec {
			return &sql.WindowSpec{At: tr.At, OrderBy: order, Frame: &sql.WindowFrame{At: tr.At, Unit: sql.FrameRows,
				Start: sql.FrameBound{Kind: sql.Preceding, Offset: intLit(tr.At, tr.N-1)}, End: sql.FrameBound{Kind: sql.CurrentRow}}}
		}
		var avg sql.Expr = &sql.Call{At: tr.At, Name: "avg", Args: []sql.Expr{f}, Over: win()}
		if tr.WMA {
			avg = wmaExpr(tr, f, order)
		}
		n := &sql.Call{At: tr.At, Name: "count", Star: true, Over: win()}
		e := &sql.Case{At: tr.At, Whens: []*sql.When{{At: tr.At, Cond: &sql.Binary{At: tr.At, Op: sql.OpGe, L: n, R: intLit(tr.At, tr.N)}, Then: avg}}}
		names, exprs = append(names, tr.Name), append(exprs, e)
	}
	if err := t.replaceOrAppend(c.At, names, exprs); err != nil {
		return err
	}
	t.q.OrderBy = order
	return nil
}

// wmaExpr is the weighted moving average of f over the last n rows: the
// row i back weighs n-i, over the weights' sum n(n+1)/2.
func wmaExpr(tr Trend, f sql.Expr, order []*sql.OrderItem) sql.Expr {
	at := tr.At
	var sum sql.Expr
	for i := int64(0); i < tr.N; i++ {
		var x = f
		if i > 0 {
			x = &sql.Call{At: at, Name: "lag", Args: []sql.Expr{f, intLit(at, i)}, Over: &sql.WindowSpec{At: at, OrderBy: order}}
		}
		term := &sql.Binary{At: at, Op: sql.OpMul, L: intLit(at, tr.N-i), R: x}
		if sum == nil {
			sum = term
		} else {
			sum = &sql.Binary{At: at, Op: sql.OpAdd, L: sum, R: term}
		}
	}
	return &sql.Binary{At: at, Op: sql.OpDiv, L: &sql.Cast{At: at, X: sum, Type: types.Double}, R: intLit(at, tr.N*(tr.N+1)/2)}
}

// dedup keeps the first N rows of each combination of the fields, by
// row_number() over the combination; rows where a field is NULL go
// (keepempty=false) or all stay (keepempty=true).
func (t *translator) dedup(c *Dedup) error {
	if c.Consecutive {
		return t.dedupConsecutive(c)
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	var keys []sql.Expr
	var order []*sql.OrderItem
	var anyNull, allSet sql.Expr
	for _, f := range c.Fields {
		k, err := t.ref(f)
		if err != nil {
			return err
		}
		keys = append(keys, k)
		order = append(order, &sql.OrderItem{At: f.At, Expr: k})
		isNull := &sql.Is{At: f.At, X: k, Is: sql.IsNull}
		notNull := &sql.Is{At: f.At, X: k, Not: true, Is: sql.IsNull}
		if anyNull == nil {
			anyNull, allSet = isNull, notNull
		} else {
			anyNull = &sql.Binary{At: f.At, Op: sql.OpOr, L: anyNull, R: isNull}
			allSet = &sql.Binary{At: f.At, Op: sql.OpAnd, L: allSet, R: notNull}
		}
	}
	// The first rows are those first in the sort before, else in the
	// natural order (carried in hidden columns), else any.
	var final []*sql.OrderItem
	if cur, ok, err := t.currentOrder("dedup"); err != nil {
		return err
	} else if ok {
		order, final = cur, cur
	} else if nat, ok, err := t.naturalOrder(c.At); err != nil {
		return err
	} else if ok {
		sel, _ := t.plain()
		sel.Items = append(sel.Items, item(nat[0].Expr, "_nat_file"), item(nat[1].Expr, "_nat_row"))
		order = []*sql.OrderItem{{At: c.At, Expr: col(c.At, "_nat_file")}, {At: c.At, Expr: col(c.At, "_nat_row")}}
		final = order
	}
	if t.q.Limit == nil && t.q.Offset == nil {
		t.q.OrderBy = nil // the window sorts; the SELECT below sorts again
	}
	rn := &sql.Call{At: c.At, Name: "row_number", Over: &sql.WindowSpec{At: c.At, PartitionBy: keys, OrderBy: order}}
	var cond sql.Expr = &sql.Binary{At: c.At, Op: sql.OpLe, L: rn, R: intLit(c.At, c.N)}
	if c.KeepEmpty {
		cond = &sql.Binary{At: c.At, Op: sql.OpOr, L: cond, R: anyNull}
	}
	from := t.sub(c.At)
	var items []*sql.SelectItem
	for _, cc := range cols {
		items = append(items, item(col(c.At, from.Alias, cc), cc))
	}
	sel := &sql.Select{At: c.At, Items: items, From: from, Qualify: cond}
	if !c.KeepEmpty {
		sel.Where = allSet
	}
	t.set(sel)
	t.q.OrderBy = final
	return nil
}

// top and rare: the N most (least) frequent combinations of the fields
// within each by group, with their count.
func (t *translator) top(c *Top) error {
	var keys, by []sql.Expr
	var names, byNames []string
	for _, f := range c.By {
		e, err := t.ref(f)
		if err != nil {
			return err
		}
		by = append(by, e)
		byNames = append(byNames, f.Name)
	}
	for _, f := range c.Fields {
		e, err := t.ref(f)
		if err != nil {
			return err
		}
		keys = append(keys, e)
		names = append(names, f.Name)
	}
	at := c.At
	var items []*sql.SelectItem
	for i, e := range by {
		items = append(items, item(e, fmt.Sprintf("_b%d", i)))
	}
	for i, e := range keys {
		items = append(items, item(e, fmt.Sprintf("_k%d", i)))
	}
	items = append(items, item(&sql.Call{At: at, Name: "count", Star: true}, "_cnt"))
	var where sql.Expr
	if c.NoNull {
		for _, k := range keys {
			nn := &sql.Is{At: at, X: k, Not: true, Is: sql.IsNull}
			if where == nil {
				where = nn
			} else {
				where = &sql.Binary{At: at, Op: sql.OpAnd, L: where, R: nn}
			}
		}
	}
	t.set(&sql.Select{At: at, Items: items, From: t.sub(at), Where: where, GroupBy: append(append([]sql.Expr{}, by...), keys...)})

	var part []sql.Expr
	var byOrder []*sql.OrderItem
	for i := range by {
		part = append(part, col(at, fmt.Sprintf("_b%d", i)))
		byOrder = append(byOrder, &sql.OrderItem{At: at, Expr: col(at, fmt.Sprintf("_b%d", i))})
	}
	order := []*sql.OrderItem{{At: at, Expr: col(at, "_cnt"), Desc: !c.Rare}}
	for i := range keys {
		order = append(order, &sql.OrderItem{At: at, Expr: col(at, fmt.Sprintf("_k%d", i))})
	}
	rn := &sql.Call{At: at, Name: "row_number", Over: &sql.WindowSpec{At: at, PartitionBy: part, OrderBy: order}}
	var kept []*sql.SelectItem
	for _, it := range items {
		kept = append(kept, item(col(at, it.Alias), it.Alias))
	}
	t.set(&sql.Select{At: at, Items: kept, From: t.sub(at),
		Qualify: &sql.Binary{At: at, Op: sql.OpLe, L: rn, R: intLit(at, c.N)}})
	t.q.OrderBy = append(byOrder, order...)

	var out []*sql.SelectItem
	for i, n := range byNames {
		out = append(out, item(col(at, fmt.Sprintf("_b%d", i)), n))
	}
	for i, n := range names {
		out = append(out, item(col(at, fmt.Sprintf("_k%d", i)), n))
	}
	if c.ShowCount {
		out = append(out, item(col(at, "_cnt"), c.CountField))
	}
	t.set(&sql.Select{At: at, Items: out, From: t.sub(at)})
	return nil
}

// allNotNull is e1 IS NOT NULL AND e2 IS NOT NULL ...
func allNotNull(at sql.Pos, es []sql.Expr) sql.Expr {
	var out sql.Expr
	for _, e := range es {
		nn := &sql.Is{At: at, X: e, Not: true, Is: sql.IsNull}
		if out == nil {
			out = nn
		} else {
			out = &sql.Binary{At: at, Op: sql.OpAnd, L: out, R: nn}
		}
	}
	return out
}
