package plan

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// selectItem is one output column before binding: an expression, or a
// column picked by a * expansion (col >= 0).
type selectItem struct {
	ast   sql.Expr
	col   *scopeCol
	alias string
	// aliases are a generator's AS (a, b) names.
	aliases []string
}

func (it selectItem) name(sc *scope) string {
	if it.alias != "" {
		return it.alias
	}
	if it.col != nil {
		return it.col.Name
	}
	return sql.SparkName(it.ast, sparkRefs(sc))
}

// sparkRefs names column references in generated names as Spark does:
// the column and its fields, without the table; a bare name that is no
// column is a function written without parentheses (current_date).
func sparkRefs(sc *scope) sql.ColumnNamer {
	return func(c *sql.ColumnRef) ([]string, bool) {
		parts := c.Parts
		if len(parts) >= 2 && sc.hasTable(parts[0]) {
			if col, err := sc.find(parts[0], parts[1]); err == nil && col != nil {
				return parts[1:], true
			}
		}
		if len(parts) == 1 && niladic[strings.ToLower(parts[0])] {
			if col, err := sc.find("", parts[0]); err == nil && col == nil {
				return parts, false
			}
		}
		return parts, true
	}
}

// bindSelect binds one SELECT block with the ORDER BY of its query.
func (b *Binder) bindSelect(sel *sql.Select, orderBy []*sql.OrderItem) (Node, error) {
	savedGroup := b.groupSubqueries
	b.groupSubqueries = nil
	defer func() { b.groupSubqueries = savedGroup }()
	orderBy, err := collatedOrder(orderBy)
	if err != nil {
		return nil, err
	}
	var input Node
	var sc *scope
	if sel.From == nil {
		input = NewValues(nil, nil, [][]expr.Expr{{}})
		sc = &scope{}
	} else {
		var err error
		if input, sc, err = b.bindFrom(sel.From); err != nil {
			return nil, err
		}
	}
	if sel.Where != nil {
		var err error
		if input, sc, err = b.bindWhere(sel.Where, input, sc, "WHERE"); err != nil {
			return nil, err
		}
	}
	grouped := len(sel.GroupBy) > 0 || sel.GroupByAll || sel.Having != nil
	for _, it := range sel.Items {
		grouped = grouped || len(collectAggs(it.Expr, nil)) > 0
	}
	for _, o := range orderBy {
		grouped = grouped || len(collectAggs(o.Expr, nil)) > 0
	}
	if !grouped {
		var err error
		if input, sc, err = b.attachSubqueries(valueExprs(sel, orderBy), input, sc); err != nil {
			return nil, err
		}
	}

	items, err := expandItems(sel.Items, sc)
	if err != nil {
		return nil, err
	}
	saved := b.windowCols
	defer func() { b.windowCols = saved }()
	b.windowCols = map[string]string{}
	if input, sc, err = b.bindHop(sel, input, sc); err != nil {
		return nil, err
	}
	if input, sc, err = b.bindSession(sel, input, sc); err != nil {
		return nil, err
	}

	// Aggregation: GROUP BY, or any aggregate call in SELECT, HAVING or
	// ORDER BY.
	var aggCalls []*sql.Call
	for _, it := range items {
		if it.ast != nil {
			aggCalls = collectAggs(it.ast, aggCalls)
		}
	}
	if sel.Having != nil {
		aggCalls = collectAggs(sel.Having, aggCalls)
	}
	for _, o := range orderBy {
		aggCalls = collectAggs(o.Expr, aggCalls)
	}
	winCalls := selectWindows(sel, items, orderBy)
	post := &exprBinder{b: b, sc: sc}
	if len(sel.GroupBy) > 0 || sel.GroupByAll || len(aggCalls) > 0 || sel.Having != nil {
		if input, sc, err = b.attachGroupBySubqueries(sel, items, input, sc); err != nil {
			return nil, err
		}
		agg, h, err := b.bindAggregate(sel, items, aggCalls, input, sc)
		if err != nil {
			return nil, err
		}
		input = agg
		// The aggregate's columns are reached through the hook only; the
		// scope's hidden columns keep later ones (subqueries) in place.
		psc := &scope{}
		for i, f := range agg.Schema().Fields() {
			psc = psc.withHidden("__agg"+itoa(i)+"#"+f.Name, f.Type)
			if i < len(agg.Keys) {
				// A key that is a column keeps its name, for subqueries
				// correlated on it (their conditions bind over this scope).
				if c, ok := agg.Keys[i].(*expr.Column); ok {
					for _, col := range sc.cols {
						if col.Index == c.Index {
							psc.cols[i].Table, psc.cols[i].Name = col.Table, col.Name
						}
					}
				}
			}
		}
		if input, psc, err = b.attachSubqueries(valueExprs(sel, orderBy), input, psc); err != nil {
			return nil, err
		}
		post = &exprBinder{b: b, sc: psc, hook: h}
		if sel.Having != nil {
			pred, err := post.bind(sel.Having)
			if err != nil {
				return nil, err
			}
			if err := wantBool(sel.Having, pred, "HAVING"); err != nil {
				return nil, err
			}
			input = &Filter{Input: input, Pred: pred}
		}
	}
	if len(winCalls) > 0 {
		if input, post, err = b.bindWindows(sel, winCalls, input, post); err != nil {
			return nil, err
		}
		if b.Streaming && !streamWindowsDefined(input) {
			return nil, streamingWindowError(winCalls[0])
		}
	}
	if sel.Qualify != nil {
		if len(winCalls) == 0 {
			return nil, errAt(sel.Qualify, "QUALIFY needs a window function in the SELECT list or in its condition")
		}
		pred, err := qualifyBinder(post, items).bind(sel.Qualify)
		if err != nil {
			return nil, err
		}
		if err := wantBool(sel.Qualify, pred, "QUALIFY"); err != nil {
			return nil, err
		}
		input = &Filter{Input: input, Pred: pred}
	}

	// A generator (explode) becomes its own node; its item then reads the
	// generated column(s).
	exprs := make([]expr.Expr, 0, len(items))
	names := make([]string, 0, len(items))
	genDone := false
	for _, it := range items {
		if it.col != nil {
			if post.hook != nil {
				return nil, errAt(it.ast, "SELECT * cannot be used with GROUP BY")
			}
			exprs = append(exprs, expr.Col(it.col.Index, it.col.Name, it.col.Type))
			names = append(names, it.col.Name)
			continue
		}
		if call, ok := it.ast.(*sql.Call); ok && isGenerator(strings.ToLower(call.Name)) {
			if genDone {
				return nil, errAt(call, "only one generator (explode) is allowed per SELECT")
			}
			genDone = true
			aliases := it.aliases
			if it.alias != "" {
				aliases = []string{it.alias}
			}
			g, err := b.bindGenerator(call, aliases, input, post)
			if err != nil {
				return nil, err
			}
			input = g.node
			exprs = append(exprs, g.exprs...)
			names = append(names, g.names...)
			continue
		}
		e, err := post.bind(it.ast)
		if err != nil {
			return nil, err
		}
		exprs = append(exprs, e)
		names = append(names, it.name(sc))
	}

	visible := len(exprs)
	var keys []SortKey
	if len(orderBy) > 0 {
		for _, o := range orderBy {
			idx, err := b.resolveOrderItem(o, exprs[:visible], names[:visible], post)
			if err != nil {
				return nil, err
			}
			if idx < 0 { // not in the select list: sort on a hidden column
				if sel.Distinct {
					return nil, errAt(o, "ORDER BY %s must appear in the SELECT list when DISTINCT is used", o.Expr)
				}
				e, err := post.bind(o.Expr)
				if err != nil {
					return nil, err
				}
				idx = len(exprs)
				exprs = append(exprs, e)
				names = append(names, "__order"+itoa(idx))
			}
			keys = append(keys, sortKey(o, expr.Col(idx, names[idx], exprs[idx].Type())))
		}
	}
	var n Node = &Project{Input: input, Exprs: exprs, Names: names}
	if sel.Distinct {
		n = &Distinct{Input: n}
	}
	if len(keys) > 0 {
		n = &Sort{Input: n, Keys: keys}
	}
	if len(exprs) > visible {
		cols := make([]expr.Expr, visible)
		for i := 0; i < visible; i++ {
			cols[i] = expr.Col(i, names[i], exprs[i].Type())
		}
		n = &Project{Input: n, Exprs: cols, Names: names[:visible]}
	}
	return n, nil
}

// valueExprs are the expressions of a SELECT whose scalar subqueries are
// joined in before they are bound: the items, HAVING, QUALIFY and ORDER BY.
func valueExprs(sel *sql.Select, orderBy []*sql.OrderItem) []sql.Expr {
	var out []sql.Expr
	for _, it := range sel.Items {
		out = append(out, it.Expr)
	}
	for _, e := range []sql.Expr{sel.Having, sel.Qualify} {
		if e != nil {
			out = append(out, e)
		}
	}
	for _, o := range orderBy {
		out = append(out, o.Expr)
	}
	return out
}

func wantBool(at sql.Expr, e expr.Expr, clause string) error {
	if e.Type().ID() != arrow.BOOL && e.Type().ID() != arrow.NULL {
		return errAt(at, "%s condition must be BOOLEAN, got %s", clause, typeName(e.Type()))
	}
	return nil
}

func sortKey(o *sql.OrderItem, e expr.Expr) SortKey {
	nullsFirst := !o.Desc
	if o.NullsFirst != nil {
		nullsFirst = *o.NullsFirst
	}
	return SortKey{Expr: e, Desc: o.Desc, NullsFirst: nullsFirst}
}

// resolveOrderItem finds the select-list column an ORDER BY item means:
// an ordinal, an output name, or an expression equal to an item. It
// returns -1 when the item is none of those.
func (b *Binder) resolveOrderItem(o *sql.OrderItem, exprs []expr.Expr, names []string, post *exprBinder) (int, error) {
	if k, ok := literalInt(o.Expr); ok {
		if k < 1 || k > len(exprs) {
			return 0, errAt(o.Expr, "ORDER BY position %d is not in the select list (1 to %d)", k, len(exprs))
		}
		return k - 1, nil
	}
	if c, ok := o.Expr.(*sql.ColumnRef); ok && len(c.Parts) == 1 {
		match := -1
		for i, n := range names {
			if strings.EqualFold(n, c.Parts[0]) {
				if match >= 0 && exprs[match].String() != exprs[i].String() {
					return 0, errAt(o.Expr, "ORDER BY %s is ambiguous", c.Parts[0])
				}
				if match < 0 {
					match = i
				}
			}
		}
		if match >= 0 {
			return match, nil
		}
	}
	e, err := post.bind(o.Expr)
	if err != nil {
		return 0, err
	}
	for i, x := range exprs {
		if exprKey(x) == exprKey(e) {
			return i, nil
		}
	}
	return -1, nil
}

// bindOrderOutput binds ORDER BY over a set operation's output columns.
func (b *Binder) bindOrderOutput(items []*sql.OrderItem, n Node, sc *scope) ([]SortKey, error) {
	s := n.Schema()
	exprs := make([]expr.Expr, s.NumFields())
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		exprs[i] = expr.Col(i, f.Name, f.Type)
		names[i] = f.Name
	}
	post := &exprBinder{b: b, sc: sc}
	var keys []SortKey
	for _, o := range items {
		idx, err := b.resolveOrderItem(o, exprs, names, post)
		if err != nil {
			return nil, err
		}
		if idx < 0 {
			return nil, errAt(o, "ORDER BY %s must name an output column of the UNION", o.Expr)
		}
		keys = append(keys, sortKey(o, exprs[idx]))
	}
	return keys, nil
}

// expandItems expands * and t.* into the columns they stand for.
func expandItems(items []*sql.SelectItem, sc *scope) ([]selectItem, error) {
	var out []selectItem
	for _, it := range items {
		star, ok := it.Expr.(*sql.Star)
		if !ok {
			out = append(out, selectItem{ast: it.Expr, alias: it.Alias, aliases: it.Aliases})
			continue
		}
		qual := strings.Join(star.Qualifier, ".")
		found := false
		for i := range sc.cols {
			c := &sc.cols[i]
			if c.Hidden || (qual != "" && !strings.EqualFold(c.Table, qual)) {
				continue
			}
			out = append(out, selectItem{ast: star, col: c})
			found = true
		}
		if !found && qual != "" {
			return nil, errAt(star, "%s.* names no table in FROM", qual)
		}
		if !found && qual == "" && len(sc.cols) == 0 {
			return nil, errAt(star, "SELECT * needs a FROM clause")
		}
	}
	return out, nil
}

// collectAggs appends the aggregate calls in e (not nested inside
// another aggregate) to acc.
func collectAggs(e sql.Expr, acc []*sql.Call) []*sql.Call {
	walkSQL(e, func(x sql.Expr) bool {
		if c, ok := x.(*sql.Call); ok && c.Over == nil && expr.IsAggregate(strings.ToLower(c.Name)) {
			acc = append(acc, c)
			return false
		}
		return true
	})
	return acc
}

// bindHop expands HOP(ts, size, slide), used in GROUP BY or the select
// list, into one row per window: an Explode of the row's windows adds a
// hidden column __hop, which every mention of that HOP call then reads.
func (b *Binder) bindHop(sel *sql.Select, input Node, sc *scope) (Node, *scope, error) {
	var hop *sql.Call
	visit := func(e sql.Expr) error {
		var err error
		walkSQL(e, func(x sql.Expr) bool {
			c, ok := x.(*sql.Call)
			// window(ts, size, slide) is Spark's spelling of a hopping window.
			if !ok || !(strings.EqualFold(c.Name, "hop") || strings.EqualFold(c.Name, "window") && len(c.Args) == 3) {
				return true
			}
			if hop != nil && hop.String() != c.String() {
				err = errAt(c, "only one HOP window per SELECT")
			}
			hop = c
			return false
		})
		return err
	}
	for _, g := range sel.GroupBy {
		if err := visit(g); err != nil {
			return nil, nil, err
		}
	}
	for _, it := range sel.Items {
		if err := visit(it.Expr); err != nil {
			return nil, nil, err
		}
	}
	if hop == nil {
		return input, sc, nil
	}
	if len(hop.Args) != 3 {
		return nil, nil, errAt(hop, "hop expects 3 arguments (ts, size, slide), got %d", len(hop.Args))
	}
	args := make([]expr.Expr, 3)
	for i, a := range hop.Args {
		e, err := b.bindScalar(a, sc)
		if err != nil {
			return nil, nil, err
		}
		args[i] = e
	}
	size, err := expr.IntervalArg("hop", args[1])
	if err != nil {
		return nil, nil, errAt(hop.Args[1], "%v", err)
	}
	slide, err := expr.IntervalArg("hop", args[2])
	if err != nil {
		return nil, nil, errAt(hop.Args[2], "%v", err)
	}
	gen, err := expr.HopWindows(args[0], size, slide)
	if err != nil {
		return nil, nil, errAt(hop, "%v", err)
	}
	ex := &Explode{Input: input, Gen: gen, Names: []string{hopColumn}, Types: []arrow.DataType{expr.WindowType}}
	out := sc.withHidden(hopColumn, expr.WindowType)
	b.windowCols[hop.String()] = hopColumn
	return ex, out, nil
}

// hopColumn names the exploded HOP window column.
const hopColumn = "__hop"

// bindSession handles GROUP BY SESSION(ts, gap), k... (Spark's
// session_window(ts, gap) alike): a SessionAssign
// node computes each row's session per the other keys, and the SESSION
// call then reads its column.
func (b *Binder) bindSession(sel *sql.Select, input Node, sc *scope) (Node, *scope, error) {
	var sess *sql.Call
	var others []sql.Expr
	for _, g := range sel.GroupBy {
		if c, ok := g.(*sql.Call); ok && (strings.EqualFold(c.Name, "session") || strings.EqualFold(c.Name, "session_window")) {
			if sess != nil {
				return nil, nil, errAt(c, "only one SESSION window per GROUP BY")
			}
			sess = c
			continue
		}
		if _, isOrdinal := literalInt(g); !isOrdinal {
			others = append(others, g)
		}
	}
	if sess == nil {
		return input, sc, nil
	}
	if len(sess.Args) != 2 {
		return nil, nil, errAt(sess, "session expects 2 arguments (ts, gap), got %d", len(sess.Args))
	}
	ts, err := b.bindScalar(sess.Args[0], sc)
	if err != nil {
		return nil, nil, err
	}
	if ts.Type().ID() != arrow.TIMESTAMP {
		return nil, nil, errAt(sess.Args[0], "session expects a TIMESTAMP, got %s", typeName(ts.Type()))
	}
	gapArg, err := b.bindScalar(sess.Args[1], sc)
	if err != nil {
		return nil, nil, err
	}
	gap, err := expr.IntervalArg("session", gapArg)
	if err != nil {
		return nil, nil, errAt(sess.Args[1], "%v", err)
	}
	node := &SessionAssign{Input: input, TS: ts, Gap: gap}
	for _, o := range others {
		k, err := b.bindScalar(o, sc)
		if err != nil {
			return nil, nil, err
		}
		node.Keys = append(node.Keys, k)
	}
	out := sc.withHidden(sessionColumn, expr.WindowType)
	b.windowCols[sess.String()] = sessionColumn
	return node, out, nil
}
