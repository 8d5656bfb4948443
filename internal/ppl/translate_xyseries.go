package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// xyseries pivots: a row per x value (every x of the input, sorted),
// for each data field and listed y value the column "d<sep>v" (or the
// format with $AGG$ and $VAL$ replaced) holding d of the input's row
// with that x and y (compared as strings), NULL without one.
func (t *translator) xyseries(c *XYSeries) error {
	at := c.At
	x, err := t.ref(c.X)
	if err != nil {
		return err
	}
	y, err := t.ref(c.Y)
	if err != nil {
		return err
	}
	ys := &sql.Cast{At: at, X: y, Type: mustType("STRING")}
	sel := &sql.Select{At: at, From: t.sub(at), Items: []*sql.SelectItem{item(x, c.X.Name)}, GroupBy: []sql.Expr{x}}
	for _, d := range c.Data {
		de, err := t.ref(d)
		if err != nil {
			return err
		}
		for _, v := range c.Values {
			name := d.Name + c.Sep + v
			if c.Format != "" {
				name = strings.ReplaceAll(strings.ReplaceAll(c.Format, "$AGG$", d.Name), "$VAL$", v)
			}
			pick := &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: &sql.Binary{At: at, Op: sql.OpEq, L: ys, R: strLit(at, v)}, Then: de}}}
			sel.Items = append(sel.Items, item(&sql.Call{At: at, Name: "first", Args: []sql.Expr{pick, &sql.Literal{At: at, Kind: sql.LitBool, Value: "TRUE"}}}, name))
		}
	}
	t.set(sel)
	t.q.OrderBy = []*sql.OrderItem{{At: at, Expr: col(at, c.X.Name)}}
	return nil
}
