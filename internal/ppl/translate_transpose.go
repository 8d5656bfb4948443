package ppl

import (
	"fmt"
	"strings"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// transpose turns the first N rows (in the current sort, else the
// natural order) into columns "row 1".."row N" of text, one output row
// per field in field order, its name in the column named c.Column; rows
// past the input's are NULL. The numbered rows are a CTE that one SELECT
// per field reads, joined by UNION ALL.
func (t *translator) transpose(c *Transpose) error {
	at := c.At
	order, ok, err := t.currentOrder("transpose")
	if err == nil && !ok {
		order, ok, err = t.naturalOrder(at)
	}
	if err != nil {
		return err
	}
	if !ok {
		return errAt(at, "transpose needs a sort before it: which rows come first is not known here")
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	for _, cc := range cols {
		if strings.EqualFold(cc, c.Column) {
			return errAt(at, "transpose: column_name=%s is also a field; choose another", c.Column)
		}
	}
	rn := &sql.Call{At: at, Name: "row_number", Over: &sql.WindowSpec{At: at, OrderBy: order}}
	if err := t.replaceOrAppendOf(at, cols, []string{"_rn"}, []sql.Expr{rn}); err != nil {
		return err
	}
	*t.n++
	name := fmt.Sprintf("_tr%d", *t.n)
	cte := &sql.CTE{At: at, Name: name, Query: t.q}
	var body sql.QueryBody
	for j, cc := range cols {
		items := []*sql.SelectItem{item(strLit(at, cc), c.Column), item(intLit(at, int64(j)), "_ord")}
		for k := int64(1); k <= c.N; k++ {
			v := &sql.Case{At: at, Whens: []*sql.When{{At: at,
				Cond: &sql.Binary{At: at, Op: sql.OpEq, L: col(at, "_rn"), R: intLit(at, k)},
				Then: &sql.Cast{At: at, X: col(at, cc), Type: types.String}}}}
			items = append(items, item(&sql.Call{At: at, Name: "max", Args: []sql.Expr{v}}, fmt.Sprintf("row %d", k)))
		}
		sel := &sql.Select{At: at, Items: items, From: &sql.TableName{At: at, Name: name}}
		if body == nil {
			body = sel
		} else {
			body = &sql.SetOp{At: at, Op: sql.SetUnion, All: true, L: body, R: sel}
		}
	}
	t.q = &sql.Query{At: at, With: []*sql.CTE{cte}, Body: body}
	t.names = nil
	from := t.sub(at)
	out := []*sql.SelectItem{item(col(at, from.Alias, c.Column), c.Column)}
	for k := int64(1); k <= c.N; k++ {
		n := fmt.Sprintf("row %d", k)
		out = append(out, item(col(at, from.Alias, n), n))
	}
	t.set(&sql.Select{At: at, Items: out, From: from})
	t.q.OrderBy = []*sql.OrderItem{{At: at, Expr: col(at, from.Alias, "_ord")}}
	return nil
}
