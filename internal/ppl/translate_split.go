package ppl

import "sluice/internal/sql"

// splitSpec is what chart and timechart share once their rows CTE holds
// each input row's value __t and category __b: one row per (__t, __b)
// with the aggregate agg as __v, through final; without by, per __t
// alone. With limit > 0 only the limit categories whose sums over __t
// come first (largest first when desc) keep their own rows; the others
// are dropped or, with useOther, merged into one category otherStr.
type splitSpec struct {
	at                   sql.Pos
	rows, grouped, ranks string // the CTEs' names
	alias                string // a prefix of its subqueries' aliases
	agg                  sql.Expr
	by                   bool
	limit                int64
	desc, useOther       bool
	otherStr             string
	final                func(from sql.TableExpr) *sql.Select
}

// groupBy groups from by __t and, when by is not "", by column by as __b.
func (sp splitSpec) groupBy(from sql.TableExpr, by string) *sql.Select {
	at := sp.at
	s := &sql.Select{At: at, From: from, Items: []*sql.SelectItem{item(col(at, "__t"), "__t")}, GroupBy: []sql.Expr{col(at, "__t")}}
	if by != "" {
		s.Items = append(s.Items, item(col(at, by), "__b"))
		s.GroupBy = append(s.GroupBy, col(at, by))
	}
	s.Items = append(s.Items, item(sp.agg, "__v"))
	return s
}

// body is the query's body; it appends the CTEs it needs to with.
func (sp splitSpec) body(with []*sql.CTE) (*sql.Select, []*sql.CTE) {
	at := sp.at
	tbl := func(name string) *sql.TableName { return &sql.TableName{At: at, Name: name} }
	sub := func(s *sql.Select, alias string) *sql.SubqueryTable {
		return &sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: s}, Alias: alias}
	}
	switch {
	case !sp.by:
		return sp.final(sub(sp.groupBy(tbl(sp.rows), ""), sp.grouped)), with
	case sp.limit == 0:
		return sp.final(sub(sp.groupBy(tbl(sp.rows), "__b"), sp.grouped)), with
	}
	with = append(with, &sql.CTE{At: at, Name: sp.grouped, Query: &sql.Query{At: at, Body: sp.groupBy(tbl(sp.rows), "__b")}})
	// ranks: each category's place by its sum over the row values.
	sums := &sql.Select{At: at, From: tbl(sp.grouped), GroupBy: []sql.Expr{col(at, "__b")}, Items: []*sql.SelectItem{
		item(col(at, "__b"), "__b"), item(&sql.Call{At: at, Name: "sum", Args: []sql.Expr{col(at, "__v")}}, "__s")}}
	rn := &sql.Call{At: at, Name: "row_number", Over: &sql.WindowSpec{At: at, OrderBy: []*sql.OrderItem{
		{At: at, Expr: col(at, "__s"), Desc: sp.desc}, {At: at, Expr: col(at, "__b")}}}}
	rank := &sql.Select{At: at, From: sub(sums, sp.alias+"s"), Items: []*sql.SelectItem{item(col(at, "__b"), "__rb"), item(rn, "__r")}}
	with = append(with, &sql.CTE{At: at, Name: sp.ranks, Query: &sql.Query{At: at, Body: rank}})
	top := &sql.Binary{At: at, Op: sql.OpLe, L: col(at, "__r"), R: intLit(at, sp.limit)}
	if !sp.useOther {
		j := &sql.Join{At: at, Kind: sql.JoinInner, L: tbl(sp.grouped), R: tbl(sp.ranks), On: &sql.Binary{At: at, Op: sql.OpEq, L: col(at, sp.grouped, "__b"), R: col(at, sp.ranks, "__rb")}}
		body := sp.final(j)
		body.Where = top
		return body, with
	}
	other := &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: top, Then: col(at, sp.rows, "__b")}}, Else: strLit(at, sp.otherStr)}
	j := &sql.Join{At: at, Kind: sql.JoinInner, L: tbl(sp.rows), R: tbl(sp.ranks), On: &sql.Binary{At: at, Op: sql.OpEq, L: col(at, sp.rows, "__b"), R: col(at, sp.ranks, "__rb")}}
	keyed := &sql.Select{At: at, From: j, Items: []*sql.SelectItem{{At: at, Expr: &sql.Star{At: at, Qualifier: []string{sp.rows}}}, item(other, "__k")}}
	return sp.final(sub(sp.groupBy(sub(keyed, sp.alias+"k"), "__k"), sp.grouped+"o")), with
}
