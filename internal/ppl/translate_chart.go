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
	tbl := func(name string) *sql.TableName { return &sql.TableName{At: at, Name: name} }
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
	groupBy := func(from sql.TableExpr, by string) *sql.Select {
		s := &sql.Select{At: at, From: from, Items: []*sql.SelectItem{item(col(at, "__t"), "__t")}, GroupBy: []sql.Expr{col(at, "__t")}}
		if by != "" {
			s.Items = append(s.Items, item(col(at, by), "__b"))
			s.GroupBy = append(s.GroupBy, col(at, by))
		}
		s.Items = append(s.Items, item(agg, "__v"))
		return s
	}
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
	var body *sql.Select
	switch {
	case c.Col == nil:
		body = final(&sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: groupBy(tbl(rows), "")}, Alias: grouped})
	case c.Limit == 0:
		body = final(&sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: groupBy(tbl(rows), "__b")}, Alias: grouped})
	default:
		with = append(with, &sql.CTE{At: at, Name: grouped, Query: &sql.Query{At: at, Body: groupBy(tbl(rows), "__b")}})
		// ranks: each category's place by its sum over the row values.
		sums := &sql.Select{At: at, From: tbl(grouped), GroupBy: []sql.Expr{col(at, "__b")}, Items: []*sql.SelectItem{
			item(col(at, "__b"), "__b"), item(&sql.Call{At: at, Name: "sum", Args: []sql.Expr{col(at, "__v")}}, "__s")}}
		rn := &sql.Call{At: at, Name: "row_number", Over: &sql.WindowSpec{At: at, OrderBy: []*sql.OrderItem{
			{At: at, Expr: col(at, "__s"), Desc: !c.Bottom}, {At: at, Expr: col(at, "__b")}}}}
		rank := &sql.Select{At: at, From: &sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: sums}, Alias: "_cs"},
			Items: []*sql.SelectItem{item(col(at, "__b"), "__rb"), item(rn, "__r")}}
		with = append(with, &sql.CTE{At: at, Name: ranks, Query: &sql.Query{At: at, Body: rank}})
		top := &sql.Binary{At: at, Op: sql.OpLe, L: col(at, "__r"), R: intLit(at, c.Limit)}
		if !c.UseOther {
			j := &sql.Join{At: at, Kind: sql.JoinInner, L: tbl(grouped), R: tbl(ranks), On: &sql.Binary{At: at, Op: sql.OpEq, L: col(at, grouped, "__b"), R: col(at, ranks, "__rb")}}
			body = final(j)
			body.Where = top
			break
		}
		other := &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: top, Then: col(at, rows, "__b")}}, Else: strLit(at, c.OtherStr)}
		j := &sql.Join{At: at, Kind: sql.JoinInner, L: tbl(rows), R: tbl(ranks), On: &sql.Binary{At: at, Op: sql.OpEq, L: col(at, rows, "__b"), R: col(at, ranks, "__rb")}}
		keyed := &sql.Select{At: at, From: j, Items: []*sql.SelectItem{{At: at, Expr: &sql.Star{At: at, Qualifier: []string{rows}}}, item(other, "__k")}}
		body = final(&sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: groupBy(&sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: keyed}, Alias: "_ck"}, "__k")}, Alias: grouped + "o"})
	}
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
