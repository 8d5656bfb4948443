package ppl

import (
	"fmt"

	"sluice/internal/sql"
)

// chart aggregates per row split value and column split category: rows
// of the row split, the category (a string; NULL is nullstr, or the
// rows go with usenull=false), then the aggregation, sorted by both.
// Rows whose row split is NULL are left out, as in OpenSearch. With a
// column split and limit n > 0 only the n categories with the largest
// (bottom: smallest) sum of the aggregation keep their name; the rest
// are aggregated again as otherstr (or left out, useother=false).
func (t *translator) chart(c *Chart) error {
	at := c.At
	agg, err := t.fixIf(c.Agg.Call)
	if err != nil {
		return err
	}
	split := func(s *ChartSplit) (sql.Expr, error) {
		x, err := t.ref(s.Field)
		if err != nil {
			return nil, err
		}
		if s.Span == nil {
			return x, nil
		}
		s.Span.Field = x
		e, window, err := t.spanExpr(s.Span)
		if err != nil {
			return nil, err
		}
		if window {
			e = &sql.FieldAccess{At: s.Span.At, X: e, Name: "start"}
		}
		return e, nil
	}
	var row, colx sql.Expr
	if c.Row != nil {
		if row, err = split(c.Row); err != nil {
			return err
		}
	}
	if c.Col != nil {
		if colx, err = split(c.Col); err != nil {
			return err
		}
	}
	*t.n++
	n := *t.n
	rows, grouped, ranks := fmt.Sprintf("_cc%d", n), fmt.Sprintf("_cg%d", n), fmt.Sprintf("_cr%d", n)
	and := func(a, b sql.Expr) sql.Expr {
		if a == nil {
			return b
		}
		return &sql.Binary{At: at, Op: sql.OpAnd, L: a, R: b}
	}
	notNull := func(e sql.Expr) sql.Expr { return &sql.Is{At: at, X: e, Not: true, Is: sql.IsNull} }
	// rows: the input with its row value __t and category __b.
	rowItems := []*sql.SelectItem{star(at)}
	var where sql.Expr
	if row != nil {
		rowItems = append(rowItems, item(row, "__t"))
		where = notNull(row)
	} else {
		rowItems = append(rowItems, item(intLit(at, 0), "__t"))
	}
	if colx != nil {
		rowItems = append(rowItems, item(&sql.Call{At: at, Name: "coalesce", Args: []sql.Expr{
			&sql.Cast{At: at, X: colx, Type: mustType("STRING")}, strLit(at, c.NullStr)}}, "__b"))
		if !c.UseNull {
			where = and(where, notNull(colx))
		}
	}
	rowSel := &sql.Select{At: at, Items: rowItems, From: t.sub(at), Where: where}
	with := []*sql.CTE{{At: at, Name: rows, Query: &sql.Query{At: at, Body: rowSel}}}
	final := func(from sql.TableExpr) *sql.Select {
		s := &sql.Select{At: at, From: from}
		if c.Row != nil {
			s.Items = append(s.Items, item(col(at, "__t"), c.Row.Field.Name))
		}
		if c.Col != nil {
			s.Items = append(s.Items, item(col(at, "__b"), c.Col.Field.Name))
		}
		s.Items = append(s.Items, item(col(at, "__v"), c.Agg.Name))
		return s
	}
	body, with := splitSpec{at: at, rows: rows, grouped: grouped, ranks: ranks, alias: "_c", agg: agg, by: c.Col != nil,
		limit: c.Limit, desc: !c.Bottom, useOther: c.UseOther, otherStr: c.OtherStr, final: final}.body(with)
	var order []*sql.OrderItem
	if c.Row != nil {
		order = append(order, &sql.OrderItem{At: at, Expr: col(at, c.Row.Field.Name)})
	}
	if c.Col != nil {
		order = append(order, &sql.OrderItem{At: at, Expr: col(at, c.Col.Field.Name)})
	}
	t.set(body)
	t.q.With, t.q.OrderBy = with, order
	return nil
}
