package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// The row order a pipeline is in: set by sort (and trendline), kept by
// commands that only filter, compute or project rows, lost by those
// that group, join or combine them. reverse and dedup consecutive=true
// need it, as rows have no order of their own here.

// keepsOrder reports whether rows leave c in the order they came.
func keepsOrder(c Command) bool {
	switch c := c.(type) {
	case *Where, *Fields, *Eval, *Head, *Rename, *ParseRegex, *FillNull, *Reverse, *Flatten, *StreamStats, *Bin, *Regex, *Rex:
		return true
	case *Patterns:
		return !c.Aggregation && !c.Brain
	case *Dedup:
		return c.Consecutive
	}
	return false
}

// trackOrder updates t.order after command c ran.
func (t *translator) trackOrder(c Command) {
	switch c := c.(type) {
	case *Sort:
		t.order = orderOf(c.Keys)
	case *Trendline:
		if len(c.Sort) > 0 {
			t.order = orderOf(c.Sort)
		}
	default:
		if !keepsOrder(c) {
			t.order = nil
		}
	}
}

func orderOf(keys []SortKey) []*sql.OrderItem {
	var out []*sql.OrderItem
	for _, k := range keys {
		out = append(out, &sql.OrderItem{At: k.Expr.Pos(), Expr: k.Expr, Desc: k.Desc})
	}
	return out
}

// currentOrder is the order rows are in, when its fields are all still
// fields of the current query; ok is false without one. A sort field
// renamed or removed since is an error.
func (t *translator) currentOrder(what string) ([]*sql.OrderItem, bool, error) {
	if len(t.order) == 0 {
		return nil, false, nil
	}
	cols, err := t.columns()
	if err != nil {
		return nil, false, err
	}
	for _, o := range t.order {
		var missing *sql.ColumnRef
		walk(o.Expr, func(r *sql.ColumnRef) {
			_, ok := find(cols, strings.Join(r.Parts, "."))
			if !ok && len(r.Parts) > 1 {
				// A path into a struct field that is still there.
				_, ok = find(cols, r.Parts[0])
			}
			if !ok && missing == nil {
				missing = r
			}
		})
		if missing != nil {
			return nil, false, errAt(missing.At, "%s: the sort field %s is no longer a field", what, strings.Join(missing.Parts, "."))
		}
	}
	return t.order, true, nil
}

// reverse flips the current sort (ascending NULLs first becomes
// descending NULLs last, so the rows come exactly backwards, ties
// aside). Without one it sorts by @timestamp descending when there is
// such a field, and otherwise does nothing, as OpenSearch does.
func (t *translator) reverse(c *Reverse) error {
	order, ok, err := t.currentOrder("reverse")
	if err != nil {
		return err
	}
	var flipped []*sql.OrderItem
	if ok {
		for _, o := range order {
			flipped = append(flipped, &sql.OrderItem{At: c.At, Expr: o.Expr, Desc: !o.Desc})
		}
	} else {
		cols, err := t.columns()
		if err != nil {
			return err
		}
		ts, ok := find(cols, "@timestamp")
		if !ok {
			return nil
		}
		flipped = []*sql.OrderItem{{At: c.At, Expr: col(c.At, ts), Desc: true}}
	}
	if t.q.OrderBy != nil && t.q.Limit == nil && t.q.Offset == nil {
		t.q.OrderBy = flipped
	} else if _, plain := t.plain(); plain {
		t.q.OrderBy = flipped
	} else {
		t.set(&sql.Select{At: c.At, Items: []*sql.SelectItem{star(c.At)}, From: t.sub(c.At)})
		t.q.OrderBy = flipped
	}
	t.order = flipped
	return nil
}

// dedupConsecutive keeps the first N rows of each run of rows (in the
// current order) with the same field values. As in OpenSearch, a row
// with a NULL field goes (keepempty=false) or stays (keepempty=true)
// and does not break a run. A run starts where lag() over the rows with
// every field set differs; its number is the running sum of starts.
func (t *translator) dedupConsecutive(c *Dedup) error {
	at := c.At
	order, ok, err := t.currentOrder("dedup consecutive=true")
	if err != nil {
		return err
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	// hidden are the natural order's columns, carried through each step.
	var hidden []string
	if !ok {
		if order, ok, err = t.naturalOrder(at); err != nil {
			return err
		}
		if !ok {
			return errAt(at, "dedup consecutive=true needs a sort before it: the rows' natural order (file and row order) is known only straight after the source and its where")
		}
		sel, _ := t.plain()
		sel.Items = append(sel.Items, item(order[0].Expr, "_nat_file"), item(order[1].Expr, "_nat_row"))
		hidden = []string{"_nat_file", "_nat_row"}
		order = []*sql.OrderItem{{At: at, Expr: col(at, "_nat_file")}, {At: at, Expr: col(at, "_nat_row")}}
	}
	var keys []sql.Expr
	var allSet sql.Expr
	for _, f := range c.Fields {
		k, err := t.ref(f)
		if err != nil {
			return err
		}
		keys = append(keys, k)
		nn := &sql.Is{At: f.At, X: k, Not: true, Is: sql.IsNull}
		if allSet == nil {
			allSet = nn
		} else {
			allSet = &sql.Binary{At: f.At, Op: sql.OpAnd, L: allSet, R: nn}
		}
	}
	if t.q.Limit == nil && t.q.Offset == nil {
		t.q.OrderBy = nil // the windows below sort; the last SELECT sorts again
	}
	win := func(part ...sql.Expr) *sql.WindowSpec {
		return &sql.WindowSpec{At: at, PartitionBy: part, OrderBy: order}
	}
	nnCol := col(at, "_nn")
	var changed sql.Expr
	for _, k := range keys {
		prev := &sql.Call{At: at, Name: "lag", Args: []sql.Expr{k}, Over: win(nnCol)}
		ne := &sql.Binary{At: at, Op: sql.OpNe, L: k, R: prev}
		if changed == nil {
			changed = &sql.Binary{At: at, Op: sql.OpOr, L: &sql.Is{At: at, X: prev, Is: sql.IsNull}, R: ne}
		} else {
			changed = &sql.Binary{At: at, Op: sql.OpOr, L: changed, R: ne}
		}
	}
	// Each step passes the input's fields by name (a window beside * is
	// refused) and adds one column. _nn comes first, in a SELECT of its
	// own, so the windows can partition by it.
	pass := func(extra []string, e sql.Expr, name string) *sql.Select {
		from := t.sub(at)
		var items []*sql.SelectItem
		for _, cc := range append(append(append([]string{}, cols...), hidden...), extra...) {
			items = append(items, item(col(at, from.Alias, cc), cc))
		}
		return &sql.Select{At: at, Items: append(items, item(e, name)), From: from}
	}
	if hidden != nil {
		t.names = append(append([]string{}, cols...), hidden...)
	}
	sel := pass(nil, allSet, "_nn")
	if !c.KeepEmpty {
		sel.Where = allSet
	}
	t.set(sel)
	start := &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: changed, Then: intLit(at, 1)}}, Else: intLit(at, 0)}
	t.set(pass([]string{"_nn"}, start, "_chg"))
	var keep sql.Expr = &sql.Binary{At: at, Op: sql.OpEq, L: col(at, "_chg"), R: intLit(at, 1)}
	if c.N > 1 {
		run := &sql.Call{At: at, Name: "sum", Args: []sql.Expr{col(at, "_chg")}, Over: &sql.WindowSpec{At: at, PartitionBy: []sql.Expr{nnCol}, OrderBy: order,
			Frame: &sql.WindowFrame{At: at, Unit: sql.FrameRows, Start: sql.FrameBound{Kind: sql.UnboundedPreceding}, End: sql.FrameBound{Kind: sql.CurrentRow}}}}
		t.set(pass([]string{"_nn", "_chg"}, run, "_run"))
		rn := &sql.Call{At: at, Name: "row_number", Over: win(nnCol, col(at, "_run"))}
		keep = &sql.Binary{At: at, Op: sql.OpLe, L: rn, R: intLit(at, c.N)}
	}
	keep = &sql.Binary{At: at, Op: sql.OpOr, L: keep, R: &sql.Unary{At: at, Op: sql.OpNot, X: nnCol}}
	from := t.sub(at)
	var items []*sql.SelectItem
	for _, cc := range cols {
		items = append(items, item(col(at, from.Alias, cc), cc))
	}
	out := &sql.Select{At: at, Items: items, From: from}
	if c.N > 1 {
		out.Qualify = keep
	} else {
		out.Where = keep
	}
	t.set(out)
	t.q.OrderBy = order
	return nil
}
