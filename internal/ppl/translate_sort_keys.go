package ppl

import (
	"fmt"

	"sluice/internal/sql"
)

// sortKeys is the order of a SELECT sorted by its own ORDER BY (no
// LIMIT), as keys the query's output has, so that a command over it as a
// subquery (appendcol numbering its rows) sees the rows in the same
// order: a key that is no output column (an expression, a field dropped
// since) is added to the SELECT as __o<i>, and ties are broken by the
// natural order (_file, _row as __nf, __nr) where the SELECT is straight
// over a file table, else left. ok is false when the query is no such
// SELECT.
func (t *translator) sortKeys(at sql.Pos, cols []string) ([]*sql.OrderItem, bool, error) {
	sel, isSel := t.q.Body.(*sql.Select)
	if !isSel || t.q.OrderBy == nil || t.q.Limit != nil || t.q.Offset != nil ||
		sel.Distinct || sel.GroupBy != nil || sel.Having != nil || sel.Qualify != nil {
		return nil, false, nil
	}
	order := t.q.OrderBy
	t.q.OrderBy = nil
	natural, hasNatural, err := t.naturalOrderOf(at, true)
	t.q.OrderBy = order
	if err != nil {
		return nil, false, err
	}
	var keys []*sql.OrderItem
	hidden := func(e sql.Expr, name string, o *sql.OrderItem) {
		sel.Items = append(sel.Items, item(e, name))
		keys = append(keys, &sql.OrderItem{At: o.At, Expr: col(o.At, name), Desc: o.Desc, NullsFirst: o.NullsFirst})
	}
	for i, o := range order {
		if r, bare := o.Expr.(*sql.ColumnRef); bare && len(r.Parts) == 1 {
			if _, ok := find(cols, r.Parts[0]); ok {
				keys = append(keys, o)
				continue
			}
		}
		hidden(o.Expr, fmt.Sprintf("__o%d", i), o)
	}
	if hasNatural {
		hidden(natural[0].Expr, "__nf", natural[0])
		hidden(natural[1].Expr, "__nr", natural[1])
	}
	return keys, true, nil
}
