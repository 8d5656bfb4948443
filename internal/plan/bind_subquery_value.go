package plan

import (
	"sluice/internal/expr"
	"sluice/internal/sql"
)

// attachSubqueries hangs the subqueries used as values in es (scalar,
// EXISTS, IN, ANY/ALL) off input as value Applies; each one's value
// becomes a hidden column of the returned scope, which binding the
// expression then reads (Binder.subqueryExprs).
func (b *Binder) attachSubqueries(es []sql.Expr, input Node, sc *scope) (Node, *scope, error) {
	var found []sql.Expr
	var err error
	for _, e := range es {
		walkSQL(e, func(x sql.Expr) bool {
			if isSubqueryExpr(x) {
				if _, done := b.subqueryExprs[x]; done {
					return false // a GROUP BY key, attached before grouping
				}
				if v, ok := b.groupSubqueries[x.String()]; ok {
					b.subqueryExprs[x] = v // the same text as a GROUP BY key
					return false
				}
			}
			switch t := x.(type) {
			case *sql.Subquery, *sql.Exists:
				found = append(found, t)
				return false
			case *sql.InSubquery, *sql.QuantifiedSubquery:
				found = append(found, t)
				return true // x may hold subqueries of its own
			case *sql.Call:
				if aerr := aggregateSubqueryError(t); aerr != nil {
					if err == nil {
						err = aerr
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
		if input, sc, err = b.attachSubquery(found[i], input, sc); err != nil {
			return nil, nil, err
		}
	}
	return input, sc, nil
}

// attachSubquery adds the Apply of one value subquery onto input.
func (b *Binder) attachSubquery(s sql.Expr, input Node, sc *scope) (Node, *scope, error) {
	name := "__subquery" + itoa(len(b.subqueryExprs)+1)
	var a *Apply
	switch t := s.(type) {
	case *sql.Subquery:
		sub, err := b.bindSubquery(t, t.Query, sc)
		if err != nil {
			return nil, nil, err
		}
		if w := sub.Schema().NumFields(); w != 1 {
			return nil, nil, errAt(s, "a scalar subquery must return one column, got %d", w)
		}
		a = &Apply{Input: input, Sub: sub, Kind: ApplyScalar}
	case *sql.Exists:
		sub, err := b.bindSubquery(t, t.Query, sc)
		if err != nil {
			return nil, nil, err
		}
		a = &Apply{Input: input, Sub: sub, Kind: ApplyExistsValue}
	case *sql.InSubquery:
		var err error
		if a, err = b.bindInApply(t, t.X, t.Query, t.Not, ApplyInValue, input, sc); err != nil {
			return nil, nil, err
		}
	case *sql.QuantifiedSubquery:
		var err error
		if not, ok := quantifiedIn(t); ok {
			a, err = b.bindInApply(t, t.X, t.Query, not, ApplyInValue, input, sc)
		} else if a, err = b.bindInApply(t, t.X, t.Query, false, ApplyCompare, input, sc); err == nil {
			a.Op, a.All = t.Op, t.All
		}
		if err != nil {
			return nil, nil, err
		}
	}
	a.Name, a.At = name, s.Pos()
	if b.subqueryExprs == nil {
		b.subqueryExprs = map[sql.Expr]expr.Expr{}
	}
	typ := a.ValueType()
	b.subqueryExprs[s] = expr.Col(input.Schema().NumFields(), name, typ)
	return a, sc.withHidden(name, typ), nil
}

// attachGroupBySubqueries attaches the subqueries of the GROUP BY keys
// before grouping, so each key reads its value as a column; the same
// subquery written again after grouping (in the SELECT list, HAVING)
// reads that key.
func (b *Binder) attachGroupBySubqueries(sel *sql.Select, items []selectItem, input Node, sc *scope) (Node, *scope, error) {
	list := sel.GroupBy
	if sel.GroupByAll {
		list = groupByAll(items)
	}
	var keys []sql.Expr
	for _, g := range list {
		if k, ok := literalInt(g); ok && !sel.GroupByAll && k >= 1 && k <= len(items) && items[k-1].ast != nil {
			g = items[k-1].ast
		}
		if firstSubquery(g) != nil {
			keys = append(keys, g)
		}
	}
	if len(keys) == 0 {
		return input, sc, nil
	}
	input, sc, err := b.attachSubqueries(keys, input, sc)
	if err != nil {
		return nil, nil, err
	}
	if b.groupSubqueries == nil {
		b.groupSubqueries = map[string]expr.Expr{}
	}
	for _, k := range keys {
		// Only a key that is the subquery itself: inside a larger key the
		// value alone is no key to read after grouping.
		if v, ok := b.subqueryExprs[k]; ok {
			b.groupSubqueries[k.String()] = v
		}
	}
	return input, sc, nil
}
