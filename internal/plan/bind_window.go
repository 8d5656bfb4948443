package plan

import (
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// collectWindows appends the window function calls (calls with OVER) in
// e to acc; their arguments are not searched (windows cannot nest).
func collectWindows(e sql.Expr, acc []*sql.Call) []*sql.Call {
	walkSQL(e, func(x sql.Expr) bool {
		if c, ok := x.(*sql.Call); ok && c.Over != nil {
			acc = append(acc, c)
			return false
		}
		return true
	})
	return acc
}

// selectWindows lists the window calls of a SELECT: its items, QUALIFY
// and the query's ORDER BY.
func selectWindows(sel *sql.Select, items []selectItem, orderBy []*sql.OrderItem) []*sql.Call {
	var calls []*sql.Call
	for _, it := range items {
		if it.ast != nil && it.col == nil {
			calls = collectWindows(it.ast, calls)
		}
	}
	if sel.Qualify != nil {
		calls = collectWindows(sel.Qualify, calls)
	}
	for _, o := range orderBy {
		calls = collectWindows(o.Expr, calls)
	}
	return calls
}

// streamingWindowError is what a stream gets for a window function.
func streamingWindowError(c *sql.Call) error {
	return errAt(c, "window functions are not supported in streaming queries yet unless partitioned by the event-time window of a windowed aggregation "+
		"(PARTITION BY window.start); %s needs every row of its partition. "+
		"Run the query as a batch query, or aggregate the stream with GROUP BY a TUMBLE, HOP or SESSION window first", c)
}

// windowGroup is the calls that share PARTITION BY and ORDER BY: one
// Window node.
type windowGroup struct {
	node  *Window
	calls []string // canonical SQL of each call, per node function
}

// bindWindows chains one Window node per distinct (PARTITION BY, ORDER
// BY) over input, binding partition keys, order keys and arguments with
// post (so they may read aggregates), and returns a binder that reads
// each window call from its column.
func (b *Binder) bindWindows(sel *sql.Select, calls []*sql.Call, input Node, post *exprBinder) (Node, *exprBinder, error) {
	named := map[string]*sql.WindowSpec{}
	for _, w := range sel.Windows {
		k := strings.ToLower(w.Name)
		if _, dup := named[k]; dup {
			return nil, nil, errAt(w, "window %s is defined twice", w.Name)
		}
		named[k] = w.Spec
	}
	var groups []*windowGroup
	byKey := map[string]*windowGroup{}
	seen := map[string]bool{}
	for _, c := range calls {
		if seen[c.String()] {
			continue
		}
		seen[c.String()] = true
		if c.Filter != nil {
			return nil, nil, errAt(c, "FILTER (WHERE ...) is not supported on window functions (%s ... OVER)", strings.ToLower(c.Name))
		}
		spec, err := resolveWindow(c.Over, named, 0)
		if err != nil {
			return nil, nil, err
		}
		part, err := post.bindAll(spec.PartitionBy)
		if err != nil {
			return nil, nil, err
		}
		var order []SortKey
		for _, o := range spec.OrderBy {
			if _, ok := literalInt(o.Expr); ok {
				return nil, nil, errAt(o, "ORDER BY in a window takes expressions, not positions")
			}
			e, err := post.bind(o.Expr)
			if err != nil {
				return nil, nil, err
			}
			order = append(order, sortKey(o, e))
		}
		fn, err := b.bindWindowCall(c, post)
		if err != nil {
			return nil, nil, err
		}
		if fn.NeedsOrder() && len(order) == 0 {
			return nil, nil, errAt(c, "%s requires the window to have an ORDER BY", fn.Name)
		}
		frame := expr.WholePartition
		if fn.UsesFrame() {
			if frame, err = bindFrame(spec.Frame, order); err != nil {
				return nil, nil, err
			}
		} else if spec.Frame != nil {
			return nil, nil, errAt(spec.Frame, "%s does not take a window frame", fn.Name)
		}
		key := exprList(part) + keyList(order)
		g := byKey[key]
		if g == nil {
			g = &windowGroup{node: &Window{PartitionBy: part, OrderBy: order}}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.node.Funcs = append(g.node.Funcs, fn)
		g.node.Frames = append(g.node.Frames, frame)
		g.node.Names = append(g.node.Names, c.String())
		g.calls = append(g.calls, c.String())
	}
	cols := map[string]expr.Expr{}
	for _, g := range groups {
		g.node.Input = input
		base := input.Schema().NumFields()
		for j, s := range g.calls {
			cols[s] = expr.Col(base+j, g.node.Names[j], g.node.Funcs[j].Type())
		}
		input = g.node
	}
	prev := post.hook
	h := func(e sql.Expr) (expr.Expr, bool, error) {
		if c, ok := e.(*sql.Call); ok && c.Over != nil {
			if col, ok := cols[c.String()]; ok {
				return col, true, nil
			}
		}
		if prev != nil {
			return prev(e)
		}
		return nil, false, nil
	}
	return input, &exprBinder{b: b, sc: post.sc, hook: h}, nil
}

// resolveWindow merges a spec with the named window it refers to: the
// reference gives PARTITION BY, and ORDER BY and the frame unless the
// spec has its own.
func resolveWindow(w *sql.WindowSpec, named map[string]*sql.WindowSpec, depth int) (*sql.WindowSpec, error) {
	if w.Name == "" {
		return w, nil
	}
	base, ok := named[strings.ToLower(w.Name)]
	if !ok {
		return nil, errAt(w, "window %s is not defined in a WINDOW clause", w.Name)
	}
	if depth > len(named) {
		return nil, errAt(w, "window %s refers to itself", w.Name)
	}
	base, err := resolveWindow(base, named, depth+1)
	if err != nil {
		return nil, err
	}
	if len(w.PartitionBy) > 0 {
		return nil, errAt(w, "a window that refers to %s cannot have its own PARTITION BY", w.Name)
	}
	out := *base
	out.Name = ""
	if len(w.OrderBy) > 0 {
		if len(base.OrderBy) > 0 {
			return nil, errAt(w, "window %s already has an ORDER BY", w.Name)
		}
		out.OrderBy = w.OrderBy
	}
	if w.Frame != nil {
		out.Frame = w.Frame
	}
	return &out, nil
}

// bindWindowCall binds the function of a call with OVER.
func (b *Binder) bindWindowCall(c *sql.Call, post *exprBinder) (*expr.WindowFunc, error) {
	name := strings.ToLower(c.Name)
	if c.Distinct {
		return nil, errAt(c, "DISTINCT is not supported in window functions")
	}
	if !expr.IsWindowFunction(name) && !expr.IsAggregate(name) {
		if expr.IsFunction(name) {
			return nil, errAt(c, "%s is not a window function or an aggregate, so it cannot take OVER", name)
		}
		return nil, errAt(c, "unknown window function %s", c.Name)
	}
	for _, a := range c.Args {
		if len(collectWindows(a, nil)) > 0 {
			return nil, errAt(a, "window function calls cannot be nested")
		}
	}
	var args []expr.Expr
	if c.Star {
		if name != "count" {
			return nil, errAt(c, "%s(*) is not valid; only count(*)", name)
		}
	} else {
		var err error
		if args, err = post.bindAll(c.Args); err != nil {
			return nil, err
		}
	}
	if expr.IsAggregate(name) {
		var err error
		if args, err = orderedSetArgs(c, name, args); err != nil {
			return nil, err
		}
	} else if c.WithinGroup {
		return nil, errAt(c, "%s does not take WITHIN GROUP (ORDER BY ...)", name)
	}
	fn, err := expr.NewWindowFunc(name, args, c.IgnoreNulls)
	if err != nil {
		return nil, errAt(c, "%v", err)
	}
	return fn, nil
}

// bindFrame resolves a frame (nil: Spark's default) for order.
func bindFrame(f *sql.WindowFrame, order []SortKey) (expr.WindowFrame, error) {
	if f == nil {
		if len(order) == 0 {
			return expr.WholePartition, nil
		}
		return expr.DefaultOrderedFrame, nil
	}
	out := expr.WindowFrame{Unit: expr.FrameRows}
	if f.Unit == sql.FrameRange {
		out.Unit = expr.FrameRange
	}
	var err error
	if out.Start, err = bindBound(f, f.Start, order); err != nil {
		return out, err
	}
	if out.End, err = bindBound(f, f.End, order); err != nil {
		return out, err
	}
	return out, nil
}

func bindBound(f *sql.WindowFrame, fb sql.FrameBound, order []SortKey) (expr.FrameBound, error) {
	kind := map[sql.BoundKind]expr.BoundKind{sql.UnboundedPreceding: expr.UnboundedPreceding, sql.Preceding: expr.Preceding,
		sql.CurrentRow: expr.CurrentRow, sql.Following: expr.Following, sql.UnboundedFollowing: expr.UnboundedFollowing}[fb.Kind]
	out := expr.FrameBound{Kind: kind}
	if fb.Offset == nil {
		return out, nil
	}
	out.Text = fb.Offset.String()
	off, err := (&Binder{}).bindScalar(fb.Offset, &scope{})
	if err != nil {
		return out, err
	}
	lit, ok := off.(*expr.Literal)
	if !ok || lit.IsNull() {
		return out, errAt(fb.Offset, "a window frame offset must be a constant, got %s", fb.Offset)
	}
	if f.Unit == sql.FrameRows {
		n, ok := intValue(lit.Value)
		if !ok || n < 0 {
			return out, errAt(fb.Offset, "a ROWS frame offset must be a non-negative integer, got %s", fb.Offset)
		}
		out.N = n
		return out, nil
	}
	if len(order) != 1 {
		return out, errAt(f, "a RANGE frame with an offset needs exactly one ORDER BY key, got %d", len(order))
	}
	kt := order[0].Expr.Type()
	switch kt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32:
		if iv, isIv := lit.Value.(arrow.MonthDayNanoInterval); isIv && kt.ID() == arrow.DATE32 {
			if iv.Months != 0 || iv.Nanoseconds != 0 || iv.Days < 0 {
				return out, errAt(fb.Offset, "a RANGE offset over a DATE must be whole days, got %s", fb.Offset)
			}
			out.N = int64(iv.Days)
			return out, nil
		}
		n, ok := intValue(lit.Value)
		if !ok || n < 0 {
			return out, errAt(fb.Offset, "a RANGE offset over %s must be a non-negative integer, got %s", typeName(kt), fb.Offset)
		}
		out.N = n
	case arrow.TIMESTAMP:
		iv, isIv := lit.Value.(arrow.MonthDayNanoInterval)
		if !isIv || iv.Months != 0 || iv.Days < 0 || iv.Nanoseconds < 0 {
			return out, errAt(fb.Offset, "a RANGE offset over a TIMESTAMP must be a non-negative INTERVAL of days or less (no months), got %s", fb.Offset)
		}
		out.N = int64(iv.Days)*86_400_000_000 + iv.Nanoseconds/1000
	case arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128:
		v, ok := floatValue(lit.Value, lit.Type())
		if !ok || v < 0 || math.IsNaN(v) {
			return out, errAt(fb.Offset, "a RANGE offset over %s must be a non-negative number, got %s", typeName(kt), fb.Offset)
		}
		out.F = v
	default:
		return out, errAt(f, "a RANGE frame with an offset needs a numeric, DATE or TIMESTAMP ORDER BY key, got %s", typeName(kt))
	}
	return out, nil
}

func intValue(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

func floatValue(v any, t arrow.DataType) (float64, bool) {
	switch x := v.(type) {
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case decimal128.Num:
		if d, ok := t.(*arrow.Decimal128Type); ok {
			return x.ToFloat64(d.Scale), true
		}
	}
	return 0, false
}

// qualifyBinder binds QUALIFY, where a select-list alias that names no
// column stands for its item (QUALIFY rn = 1), as in Databricks.
func qualifyBinder(post *exprBinder, items []selectItem) *exprBinder {
	prev := post.hook
	var eb *exprBinder
	h := func(e sql.Expr) (expr.Expr, bool, error) {
		if c, ok := e.(*sql.ColumnRef); ok && len(c.Parts) == 1 {
			if col, _ := post.sc.find("", c.Parts[0]); col == nil {
				for _, it := range items {
					if it.alias == "" || it.ast == nil || it.col != nil || !strings.EqualFold(it.alias, c.Parts[0]) {
						continue
					}
					if ref, self := it.ast.(*sql.ColumnRef); self && len(ref.Parts) == 1 && strings.EqualFold(ref.Parts[0], c.Parts[0]) {
						continue
					}
					be, err := eb.bind(it.ast)
					return be, err == nil, err
				}
			}
		}
		if prev != nil {
			return prev(e)
		}
		return nil, false, nil
	}
	eb = &exprBinder{b: post.b, sc: post.sc, hook: h}
	return eb
}
