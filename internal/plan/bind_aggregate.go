package plan

import (
	"strings"

	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// bindAggregate builds the Aggregate node for a grouped SELECT and the
// hook that binds post-aggregation expressions (SELECT items, HAVING,
// ORDER BY) to its output columns.
func (b *Binder) bindAggregate(sel *sql.Select, items []selectItem, calls []*sql.Call, input Node, sc *scope) (*Aggregate, hook, error) {
	agg := &Aggregate{Input: input}
	pre := &exprBinder{b: b, sc: sc}
	list := sel.GroupBy
	if sel.GroupByAll {
		list = groupByAll(items)
	}
	gk := expandGroupBy(list)
	var keys []expr.Expr
	shapes := shapeMemo{}
	maxKey := 0
	for _, g := range gk.keys {
		ast := g
		if k, ok := literalInt(g); ok && !sel.GroupByAll {
			if k < 1 || k > len(items) || items[k-1].ast == nil || items[k-1].col != nil {
				return nil, nil, errAt(g, "GROUP BY position %d is not in the select list", k)
			}
			ast = items[k-1].ast
		} else if c, ok := g.(*sql.ColumnRef); ok && len(c.Parts) == 1 {
			// GROUP BY an alias of the select list, when no column has that name.
			if col, _ := sc.find("", c.Parts[0]); col == nil {
				for _, it := range items {
					if it.alias != "" && strings.EqualFold(it.alias, c.Parts[0]) {
						ast = it.ast
					}
				}
			}
		}
		if len(collectAggs(ast, nil)) > 0 {
			return nil, nil, errAt(g, "aggregate functions are not allowed in GROUP BY")
		}
		maxKey = max(maxKey, shapes.of(ast).size)
		k, err := pre.bind(ast)
		if err != nil {
			return nil, nil, err
		}
		keys = append(keys, k)
		agg.KeyNames = append(agg.KeyNames, keyName(ast, k, items))
	}
	keyStrings := make([]string, len(keys))
	for i, k := range keys {
		keyStrings[i] = exprKey(k)
	}
	agg.Keys = keys
	if gk.sets != nil {
		if b.Streaming {
			return nil, nil, errAt(sel, "ROLLUP, CUBE and GROUPING SETS are not supported in streaming queries")
		}
		in, ks, err := expandSets(input, keys, gk.sets)
		if err != nil {
			return nil, nil, errAt(sel, "grouping sets: %v", err)
		}
		agg.Input, agg.Keys = in, ks
		agg.KeyNames = append(agg.KeyNames, groupingIDName)
	}
	seen := map[string]int{}
	for _, c := range calls {
		a, err := b.bindAggCall(c, pre)
		if err != nil {
			return nil, nil, err
		}
		if _, ok := seen[aggKey(a)]; ok {
			continue
		}
		seen[aggKey(a)] = len(agg.Aggs)
		agg.Aggs = append(agg.Aggs, a)
		agg.AggNames = append(agg.AggNames, a.String())
	}
	nk := len(agg.Keys)
	// The first key of each canonical form: one map probe per subtree.
	// Keys as bound over the input, before grouping sets rewrote them
	// into columns of their Explode: what an expression binds to.
	keyIndex := make(map[string]int, len(keyStrings))
	for i := len(keyStrings) - 1; i >= 0; i-- {
		keyIndex[keyStrings[i]] = i
	}
	limit := keyMatchLimit(maxKey)
	outTypes := agg.Schema()
	var h hook
	h = func(e sql.Expr) (expr.Expr, bool, error) {
		if c, ok := isGroupingCall(e); ok {
			gid := expr.Col(nk-1, groupingIDName, types.BigInt)
			be, err := bindGroupingCall(c, pre, keyStrings, gk.sets, gid)
			return be, err == nil, err
		}
		if w := windowFieldRef(e, sel, sc); w != nil {
			be, err := (&exprBinder{b: b, sc: &scope{}, hook: h}).bind(w)
			return be, err == nil, err
		}
		if c, ok := e.(*sql.Call); ok && c.Over == nil && expr.IsAggregate(strings.ToLower(c.Name)) {
			a, err := b.bindAggCall(c, pre)
			if err != nil {
				return nil, false, err
			}
			j := seen[aggKey(a)]
			f := outTypes.Field(nk + j)
			return expr.Col(nk+j, f.Name, f.Type), true, nil
		}
		if _, isLit := e.(*sql.Literal); isLit {
			return nil, false, nil
		}
		if sh := shapes.of(e); nk > 0 && !sh.agg && sh.size <= limit {
			if be, err := pre.bind(e); err == nil {
				if i, ok := keyIndex[exprKey(be)]; ok {
					f := outTypes.Field(i)
					return expr.Col(i, f.Name, f.Type), true, nil
				}
			} else if isCancel(err) {
				return nil, false, err
			}
		}
		if c, ok := e.(*sql.ColumnRef); ok {
			// HAVING n > 1 where n is a select-list alias, as Spark allows.
			if len(c.Parts) == 1 {
				for _, it := range items {
					if it.alias == "" || !strings.EqualFold(it.alias, c.Parts[0]) || it.ast == nil {
						continue
					}
					if ref, self := it.ast.(*sql.ColumnRef); self && len(ref.Parts) == 1 && strings.EqualFold(ref.Parts[0], c.Parts[0]) {
						continue
					}
					be, err := (&exprBinder{b: b, sc: &scope{}, hook: h}).bind(it.ast)
					return be, err == nil, err
				}
			}
			if col, _, _ := resolveIn(sc, c.Parts); col == nil {
				// An outer query's column is one value per group.
				if o, _, err := b.outerColumn(c.Parts); err != nil || o != nil {
					if err != nil {
						return nil, false, errAt(e, "%v", err)
					}
					be, err := pre.bind(e)
					return be, err == nil, err
				}
			}
			return nil, false, errAt(e, "column %q must appear in GROUP BY or be used in an aggregate function", strings.Join(c.Parts, "."))
		}
		return nil, false, nil
	}
	return agg, h, nil
}

// groupByAll lists the GROUP BY ALL keys: every select item without an
// aggregate (constants aside, which group nothing), as in Spark.
func groupByAll(items []selectItem) []sql.Expr {
	var out []sql.Expr
	for _, it := range items {
		if it.ast == nil || it.col != nil {
			continue
		}
		if _, lit := it.ast.(*sql.Literal); lit || len(collectAggs(it.ast, nil)) > 0 {
			continue
		}
		if c, ok := it.ast.(*sql.Call); ok && c.Over != nil {
			continue
		}
		if _, ok := isGroupingCall(it.ast); ok {
			continue
		}
		out = append(out, it.ast)
	}
	return out
}

func keyName(ast sql.Expr, k expr.Expr, items []selectItem) string {
	switch t := ast.(type) {
	case *sql.ColumnRef:
		return t.Parts[len(t.Parts)-1]
	case *sql.FieldAccess:
		return t.Name
	}
	for _, it := range items {
		if it.ast == ast && it.alias != "" {
			return it.alias
		}
	}
	return k.String()
}

func (b *Binder) bindAggCall(c *sql.Call, pre *exprBinder) (*expr.Aggregate, error) {
	name := strings.ToLower(c.Name)
	for _, a := range c.Args {
		if len(collectAggs(a, nil)) > 0 {
			return nil, errAt(a, "aggregate function calls cannot be nested")
		}
	}
	var args []expr.Expr
	var err error
	if !c.Star {
		if args, err = pre.bindAll(c.Args); err != nil {
			return nil, err
		}
	} else if name != "count" {
		return nil, errAt(c, "%s(*) is not valid; only count(*)", name)
	}
	if args, err = orderedSetArgs(c, name, args); err != nil {
		return nil, err
	}
	if c.IgnoreNulls {
		// first(x) IGNORE NULLS is first(x, true).
		if (name != "first" && name != "first_value" && name != "last" && name != "last_value") || len(args) != 1 {
			return nil, errAt(c, "IGNORE NULLS is only valid for first and last with one argument, and for window functions")
		}
		args = append(args, expr.MustLit(true, types.Boolean))
	}
	var filter expr.Expr
	if c.Filter != nil {
		if len(collectAggs(c.Filter, nil)) > 0 {
			return nil, errAt(c.Filter, "aggregate functions are not allowed in FILTER (WHERE ...)")
		}
		f, err := pre.bind(c.Filter)
		if err != nil {
			return nil, err
		}
		if err := wantBool(c.Filter, f, "FILTER"); err != nil {
			return nil, err
		}
		filter = f
	}
	a, err := expr.NewFilteredAggregate(name, args, c.Distinct, filter)
	if err != nil {
		return nil, errAt(c, "%v", err)
	}
	return a, nil
}

// orderedSet lists the aggregates taking WITHIN GROUP (ORDER BY x) and
// whether they need it.
var orderedSet = map[string]bool{"percentile_cont": true, "percentile_disc": true, "mode": false}

// orderedSetArgs checks WITHIN GROUP and passes its DESC on: a trailing
// constant TRUE for percentile_cont and percentile_disc (x, p, desc), and
// mode(x, deterministic, desc). The parser has put x first.
func orderedSetArgs(c *sql.Call, name string, args []expr.Expr) ([]expr.Expr, error) {
	need, ok := orderedSet[name]
	switch {
	case c.WithinGroup && !ok:
		return nil, errAt(c, "%s does not take WITHIN GROUP (ORDER BY ...)", name)
	case !c.WithinGroup && need:
		return nil, errAt(c, "%s needs WITHIN GROUP (ORDER BY ...): %s(p) WITHIN GROUP (ORDER BY x)", name, name)
	case !c.WithinGroup:
		if name == "mode" && len(args) > 2 {
			return nil, errAt(c, "mode expects 1 or 2 arguments (x, deterministic), got %d", len(args))
		}
		return args, nil
	}
	if name == "mode" {
		if len(args) != 1 {
			return nil, errAt(c, "mode() WITHIN GROUP takes no arguments of its own")
		}
		if c.WithinDesc {
			args = append(args, expr.MustLit(true, types.Boolean), expr.MustLit(true, types.Boolean))
		}
		return args, nil
	}
	if len(args) != 2 {
		return nil, errAt(c, "%s(p) WITHIN GROUP takes one percentage", name)
	}
	if c.WithinDesc {
		args = append(args, expr.MustLit(true, types.Boolean))
	}
	return args, nil
}
