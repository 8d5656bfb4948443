package plan

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// attachSubqueries joins the scalar subqueries and EXISTS values in es
// onto input; each one's value becomes a hidden column of the returned
// scope, which binding the expression then reads.
func (b *Binder) attachSubqueries(es []sql.Expr, input Node, sc *scope) (Node, *scope, error) {
	var found []sql.Expr
	var err error
	for _, e := range es {
		walkSQL(e, func(x sql.Expr) bool {
			switch t := x.(type) {
			case *sql.Subquery, *sql.Exists:
				// Attached afresh even if seen: a subquery bound twice (once
				// as uncorrelated, then decorrelated) reads the latest plan.
				found = append(found, t)
				return false
			case *sql.InSubquery:
				found = append(found, t)
				return true // x may hold subqueries of its own
			case *sql.Call:
				if t.Over == nil && expr.IsAggregate(strings.ToLower(t.Name)) {
					if s := firstSubquery(&sql.Call{Name: "f", Args: t.Args}); s != nil && err == nil {
						err = errAt(s, "subqueries inside aggregate functions are not supported")
					}
					return false
				}
			}
			return true
		})
	}
	if err != nil {
		return nil, nil, err
	}
	// Innermost first: an IN's probe may read a subquery found after it.
	for i := len(found) - 1; i >= 0; i-- {
		s := found[i]
		if in, ok := s.(*sql.InSubquery); ok {
			input, sc, err = b.attachIn(in, input, sc)
		} else {
			input, sc, err = b.attachSubquery(s, input, sc)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return input, sc, nil
}

func (b *Binder) attachSubquery(s sql.Expr, input Node, sc *scope) (Node, *scope, error) {
	var q *sql.Query
	exists := false
	switch t := s.(type) {
	case *sql.Subquery:
		q = t.Query
	case *sql.Exists:
		q, exists = t.Query, true
	}
	n, corr, err := b.bindSubquery(s, q, input, sc)
	if err != nil {
		return nil, nil, err
	}
	base := input.Schema().NumFields()
	name := "__subquery" + itoa(len(b.subqueryExprs)+1)
	if b.subqueryExprs == nil {
		b.subqueryExprs = map[sql.Expr]expr.Expr{}
	}
	if corr == nil {
		var right Node
		var typ arrow.DataType
		if exists {
			count, _ := expr.NewAggregate("count", nil, false)
			agg := &Aggregate{Input: &Limit{Input: n, N: 1}, Aggs: []*expr.Aggregate{count}, AggNames: []string{"count(*)"}}
			zero, _ := expr.Lit(int64(0), types.BigInt)
			gt, err := expr.Call(">", expr.Col(0, "count(*)", types.BigInt), zero)
			if err != nil {
				return nil, nil, errAt(s, "%v", err)
			}
			right, typ = &Project{Input: agg, Exprs: []expr.Expr{gt}, Names: []string{name}}, types.Boolean
		} else {
			if w := n.Schema().NumFields(); w != 1 {
				return nil, nil, errAt(s, "a scalar subquery must return one column, got %d", w)
			}
			f := n.Schema().Field(0)
			one, err := expr.NewAggregate(functions.SingleValueName, []expr.Expr{expr.Col(0, f.Name, f.Type)}, false)
			if err != nil {
				return nil, nil, errAt(s, "%v", err)
			}
			right, typ = &Aggregate{Input: n, Aggs: []*expr.Aggregate{one}, AggNames: []string{name}}, one.Type()
		}
		b.subqueryExprs[s] = expr.Col(base, name, typ)
		return &Join{Left: input, Right: right, Kind: CrossJoin}, sc.withHidden(name, typ), nil
	}
	return b.attachCorrelated(s, exists, corr, name, input, sc)
}

// attachCorrelated left-joins a correlated scalar subquery (or EXISTS)
// grouped by its correlated columns.
func (b *Binder) attachCorrelated(s sql.Expr, exists bool, corr *correlated, name string, input Node, sc *scope) (Node, *scope, error) {
	sel := corr.sel
	if len(corr.residual) > 0 {
		return nil, nil, errAt(s, "a correlated subquery used as a value may only compare outer columns with = (found another condition on them)")
	}
	if !exists && (len(sel.Items) != 1 || !aggregated(sel) || len(sel.GroupBy) > 0 || sel.GroupByAll) {
		return nil, nil, errAt(s, "a correlated scalar subquery must compute one aggregate, without GROUP BY (so it yields at most one row)")
	}
	if exists && aggregated(sel) {
		return nil, nil, errAt(s, "correlated EXISTS subqueries with GROUP BY, HAVING or aggregates are not supported")
	}
	// SELECT inner keys..., value, TRUE FROM ... WHERE uncorrelated GROUP BY inner keys
	// __matched is TRUE, or HAVING's value: a group HAVING drops must
	// read as NULL, not as "no rows".
	syn := &sql.Select{At: sel.At, From: sel.From, Where: andAST(corr.uncorr), GroupBy: corr.innerAST}
	var matchedAST sql.Expr = &sql.Literal{At: sel.At, Kind: sql.LitBool, Value: "TRUE"}
	if !exists && sel.Having != nil {
		matchedAST = sel.Having
	}
	for i, k := range corr.innerAST {
		syn.Items = append(syn.Items, &sql.SelectItem{At: k.Pos(), Expr: k, Alias: "__key" + itoa(i+1)})
	}
	if !exists {
		syn.Items = append(syn.Items, &sql.SelectItem{At: sel.At, Expr: sel.Items[0].Expr, Alias: name})
	}
	syn.Items = append(syn.Items, &sql.SelectItem{At: sel.At, Expr: matchedAST, Alias: "__matched"})
	right, _, err := b.bindQuery(&sql.Query{At: sel.At, Body: syn})
	if err != nil {
		return nil, nil, err
	}
	rs := right.Schema()
	nk := len(corr.innerAST)
	j := &Join{Left: input, Right: right, Kind: LeftJoin, LeftKeys: corr.outerKeys}
	for i := 0; i < nk; i++ {
		j.RightKeys = append(j.RightKeys, expr.Col(i, rs.Field(i).Name, rs.Field(i).Type))
	}
	base := input.Schema().NumFields()
	out := sc
	for i, f := range rs.Fields() {
		out = out.withHidden(f.Name+"#"+itoa(base+i), f.Type)
	}
	last := rs.NumFields() - 1
	matched := expr.Col(base+last, "__matched", types.Boolean)
	var value expr.Expr
	if exists {
		if value, err = expr.Call("is_not_null", matched); err != nil {
			return nil, nil, errAt(s, "%v", err)
		}
	} else {
		v := rs.Field(last - 1)
		value = expr.Col(base+last-1, name, v.Type)
		empty := b.emptyValue(sel.Items[0].Expr, corr.sc)
		if sel.Having != nil {
			// Over no rows the group exists only if HAVING holds there.
			if h, ok := b.emptyValue(sel.Having, corr.sc).(*expr.Literal); !ok || h.Value != true {
				empty = nil
			}
		}
		var whens, thens []expr.Expr
		if empty != nil {
			// No group matched: the value over no rows (count is 0).
			isNull, err := expr.Call("is_null", matched)
			if err != nil {
				return nil, nil, errAt(s, "%v", err)
			}
			whens, thens = append(whens, isNull), append(thens, empty)
		}
		if sel.Having != nil {
			whens, thens = append(whens, matched), append(thens, value)
			null, _ := expr.Lit(nil, value.Type())
			value = null
		}
		if len(whens) > 0 {
			if value, err = expr.Case(nil, whens, thens, value); err != nil {
				return nil, nil, errAt(s, "%v", err)
			}
		}
	}
	b.subqueryExprs[s] = value
	return j, out, nil
}

// emptyValue is what item yields over no rows when that is not NULL (a
// count), else nil.
func (b *Binder) emptyValue(item sql.Expr, sc *scope) expr.Expr {
	pre := &exprBinder{b: b, sc: sc}
	eb := &exprBinder{b: b, sc: &scope{}, hook: func(e sql.Expr) (expr.Expr, bool, error) {
		c, ok := e.(*sql.Call)
		if !ok || c.Over != nil || !expr.IsAggregate(strings.ToLower(c.Name)) {
			return nil, false, nil
		}
		a, err := b.bindAggCall(c, pre)
		if err != nil {
			return nil, false, err
		}
		if a.Name == "count" || a.Name == "count_if" {
			l, err := expr.Lit(int64(0), types.BigInt)
			return l, err == nil, err
		}
		l, err := expr.Lit(nil, a.Type())
		return l, err == nil, err
	}}
	v, err := eb.bind(item)
	if err != nil || len(expr.Columns(v)) > 0 {
		return nil
	}
	if folded, err := expr.Fold(v); err == nil {
		v = folded
	}
	if l, ok := v.(*expr.Literal); ok && l.Value == nil {
		return nil
	}
	return v
}

// attachIn joins in the value of x [NOT] IN (q) where it is not a WHERE
// condition of its own (SELECT list, under OR): a left join with q's
// distinct values marks the matches, and a cross join with q's row and
// non-NULL counts gives the NULL cases: no match is NULL when x is NULL
// or q has a NULL, FALSE when q is empty.
func (b *Binder) attachIn(e *sql.InSubquery, input Node, sc *scope) (Node, *scope, error) {
	x, err := b.bindScalar(e.X, sc)
	if err != nil {
		return nil, nil, err
	}
	n, corr, err := b.bindSubquery(e, e.Query, input, sc)
	if err != nil {
		return nil, nil, err
	}
	if corr != nil {
		return nil, nil, errAt(e, "a correlated IN (subquery) is only supported as a WHERE condition, alone or AND-ed with others")
	}
	if w := n.Schema().NumFields(); w != 1 {
		return nil, nil, errAt(e, "the subquery of IN must return one column, got %d", w)
	}
	f := n.Schema().Field(0)
	lk, rk, err := inKeys(e, x, expr.Col(0, f.Name, f.Type))
	if err != nil {
		return nil, nil, err
	}
	if b.subqueryExprs == nil {
		b.subqueryExprs = map[sql.Expr]expr.Expr{}
	}
	col := expr.Col(0, f.Name, f.Type)
	count, _ := expr.NewAggregate("count", nil, false)
	countCol, err := expr.NewAggregate("count", []expr.Expr{col}, false)
	if err != nil {
		return nil, nil, errAt(e, "%v", err)
	}
	counts := &Aggregate{Input: n, Aggs: []*expr.Aggregate{count, countCol}, AggNames: []string{"__rows", "__values"}}
	marks := &Project{Input: &Distinct{Input: n}, Exprs: []expr.Expr{col, expr.MustLit(true, types.Boolean)}, Names: []string{f.Name, "__in"}}
	base := input.Schema().NumFields()
	var node Node = &Join{Left: input, Right: counts, Kind: CrossJoin}
	node = &Join{Left: node, Right: marks, Kind: LeftJoin, LeftKeys: []expr.Expr{lk}, RightKeys: []expr.Expr{rk}}
	out := sc.withHidden("__rows#"+itoa(base), types.BigInt).withHidden("__values#"+itoa(base+1), types.BigInt).
		withHidden(f.Name+"#"+itoa(base+2), f.Type).withHidden("__in#"+itoa(base+3), types.Boolean)
	rows := expr.Col(base, "__rows", types.BigInt)
	values := expr.Col(base+1, "__values", types.BigInt)
	mark := expr.Col(base+3, "__in", types.Boolean)
	zero := expr.MustLit(int64(0), types.BigInt)
	matched, err1 := expr.Call("is_not_null", mark)
	empty, err2 := expr.Call("=", rows, zero)
	xNull, err3 := expr.Call("is_null", x)
	hasNull, err4 := expr.Call("<", values, rows)
	nullCase, err5 := expr.Call("or", xNull, hasNull)
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil {
			return nil, nil, errAt(e, "%v", err)
		}
	}
	t, f0 := expr.MustLit(true, types.Boolean), expr.MustLit(false, types.Boolean)
	null := expr.MustLit(nil, types.Boolean)
	value, err := expr.Case(nil, []expr.Expr{matched, empty, nullCase}, []expr.Expr{t, f0, null}, f0)
	if err != nil {
		return nil, nil, errAt(e, "%v", err)
	}
	if e.Not {
		if value, err = expr.Call("not", value); err != nil {
			return nil, nil, errAt(e, "%v", err)
		}
	}
	b.subqueryExprs[e] = value
	return node, out, nil
}
