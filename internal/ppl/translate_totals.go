package ppl

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// addTotals adds each row's total of the fields (NULL counted as 0) as
// the field fieldname (row=true), then a last row with each field's sum
// (col=true): the label in labelfield (added when there is no such
// field), NULL in the other fields. Without a field list every numeric
// field is totalled.
func (t *translator) addTotals(c *AddTotals) error {
	at := c.At
	var fields []string
	if c.Fields != nil {
		for _, n := range c.Fields {
			f, ok, err := t.resolve(n.Name)
			if err != nil {
				return err
			}
			if !ok {
				return errAt(n.At, "field %s not found", n.Name)
			}
			fields = append(fields, f)
		}
	} else {
		if t.schema == nil {
			return errAt(at, "addtotals without a field list needs the types of its input")
		}
		s, err := t.schema(t.q)
		if err != nil {
			return err
		}
		for _, f := range s.Fields() {
			if isNumber(f.Type) {
				fields = append(fields, f.Name)
			}
		}
		if len(fields) == 0 {
			return errAt(at, "addtotals: no numeric field to total")
		}
	}
	if c.Row {
		var sum sql.Expr
		for _, f := range fields {
			x := &sql.Call{At: at, Name: "coalesce", Args: []sql.Expr{col(at, f), intLit(at, 0)}}
			if sum == nil {
				sum = x
			} else {
				sum = &sql.Binary{At: at, Op: sql.OpAdd, L: sum, R: x}
			}
		}
		if err := t.replaceOrAppend(at, []string{c.FieldName}, []sql.Expr{sum}); err != nil {
			return err
		}
	}
	if !c.Col {
		return nil
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	*t.n++
	name := fmt.Sprintf("_at%d", *t.n)
	cte := &sql.CTE{At: at, Name: name, Query: t.q}
	all := cols
	label, hasLabel := "", c.LabelField != ""
	if hasLabel {
		var ok bool
		if label, ok = find(cols, c.LabelField); !ok {
			label = c.LabelField
			all = append(append([]string{}, cols...), label)
		}
	}
	var rowsItems, totalItems []*sql.SelectItem
	for _, cc := range all {
		_, had := find(cols, cc)
		switch {
		case had:
			rowsItems = append(rowsItems, item(col(at, cc), cc))
		default:
			rowsItems = append(rowsItems, item(&sql.Literal{At: at, Kind: sql.LitNull, Value: "NULL"}, cc))
		}
		total := sql.Expr(&sql.Literal{At: at, Kind: sql.LitNull, Value: "NULL"})
		if _, ok := find(fields, cc); ok {
			total = &sql.Call{At: at, Name: "sum", Args: []sql.Expr{col(at, cc)}}
		} else if hasLabel && strings.EqualFold(cc, label) {
			total = strLit(at, c.Label)
		}
		totalItems = append(totalItems, item(total, cc))
	}
	rows := &sql.Select{At: at, Items: rowsItems, From: &sql.TableName{At: at, Name: name}}
	totals := &sql.Select{At: at, Items: totalItems, From: &sql.TableName{At: at, Name: name}}
	t.q = &sql.Query{At: at, With: []*sql.CTE{cte}, Body: &sql.SetOp{At: at, Op: sql.SetUnion, All: true, L: rows, R: totals}}
	t.names = all
	return nil
}

func isNumber(t arrow.DataType) bool { return types.IsNumeric(t) }
