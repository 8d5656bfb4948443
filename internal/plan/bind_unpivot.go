package plan

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
)

// unpivotIndex names the item number of the rewrite of UNPIVOT.
const unpivotIndex = "__unpivot_item"

// bindUnpivot binds from UNPIVOT (...) as a cross join of the FROM item
// with the item numbers 1..n: each row becomes n rows, in item order,
// that keep the columns not unpivoted and take the item's name and
// values (CASE on the number), without the rows whose values are all
// NULL unless INCLUDE NULLS.
func (b *Binder) bindUnpivot(u *sql.Unpivot) (Node, *scope, error) {
	sc, err := b.preboundFrom(u.From)
	if err != nil {
		return nil, nil, err
	}
	at := u.At
	used := map[int]bool{}
	cols := make([][]*scopeCol, len(u.Items))
	for i, it := range u.Items {
		if len(it.Columns) != len(u.ValueColumns) {
			return nil, nil, errAt(it.Columns[0], "UNPIVOT item %d has %d columns for %d value columns", i+1, len(it.Columns), len(u.ValueColumns))
		}
		for _, r := range it.Columns {
			c, err := findRef(sc, r)
			if err != nil {
				return nil, nil, err
			}
			cols[i] = append(cols[i], c)
			used[c.Index] = true
		}
	}
	if err := unpivotTypes(u, cols); err != nil {
		return nil, nil, err
	}
	sel := &sql.Select{At: at}
	for i := range sc.cols {
		if c := &sc.cols[i]; !c.Hidden && !used[c.Index] {
			sel.Items = append(sel.Items, &sql.SelectItem{At: at, Expr: colRef(c, at), Alias: c.Name})
		}
	}
	index := &sql.ColumnRef{At: at, Parts: []string{unpivotIndex}}
	pick := func(val func(i int) sql.Expr) sql.Expr {
		cs := &sql.Case{At: at, Operand: index}
		for i := range u.Items {
			cs.Whens = append(cs.Whens, &sql.When{At: at, Cond: intLit(at, i+1), Then: val(i)})
		}
		return cs
	}
	sel.Items = append(sel.Items, &sql.SelectItem{At: at, Alias: u.NameColumn, Expr: pick(func(i int) sql.Expr {
		return &sql.Literal{At: at, Kind: sql.LitString, Value: unpivotItemName(u.Items[i])}
	})})
	var nulls []sql.Expr
	for j, name := range u.ValueColumns {
		v := pick(func(i int) sql.Expr { return colRef(cols[i][j], at) })
		sel.Items = append(sel.Items, &sql.SelectItem{At: at, Alias: name, Expr: v})
		nulls = append(nulls, &sql.Is{At: at, X: v, Is: sql.IsNull})
	}
	if !u.IncludeNulls {
		sel.Where = &sql.Unary{At: at, Op: sql.OpNot, X: andAST(nulls)}
	}
	items := &sql.Values{At: at}
	for i := range u.Items {
		items.Rows = append(items.Rows, []sql.Expr{intLit(at, i+1)})
	}
	numbers := &sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: items}, Alias: unpivotIndex, Columns: []string{unpivotIndex}}
	sel.From = &sql.Join{At: at, Kind: sql.JoinCross, L: u.From, R: numbers}
	n, err := b.bindSelect(sel, nil)
	if err != nil {
		return nil, nil, err
	}
	return n, scopeFor(u.Alias, n.Schema(), nil), nil
}

// unpivotTypes refuses a value column whose columns mix strings with
// other types: Spark finds them no common type (a CASE would make
// strings of them).
func unpivotTypes(u *sql.Unpivot, cols [][]*scopeCol) error {
	for j, name := range u.ValueColumns {
		strs, others := 0, 0
		for i := range cols {
			if cols[i][j].Type.ID() == arrow.STRING || cols[i][j].Type.ID() == arrow.LARGE_STRING {
				strs++
			} else if cols[i][j].Type.ID() != arrow.NULL {
				others++
			}
		}
		if strs > 0 && others > 0 {
			return errAt(u.Items[0].Columns[0], "UNPIVOT value column %s: the columns must share a least common type, and strings mix with other types", name)
		}
	}
	return nil
}

// unpivotItemName is the name an UNPIVOT item gives its rows: its alias,
// or its columns' names joined with '_', as in Spark.
func unpivotItemName(it *sql.UnpivotItem) string {
	if it.Alias != "" {
		return it.Alias
	}
	names := make([]string, len(it.Columns))
	for i, c := range it.Columns {
		names[i] = c.Parts[len(c.Parts)-1]
	}
	return strings.Join(names, "_")
}

func intLit(at sql.Pos, n int) sql.Expr {
	return &sql.Literal{At: at, Kind: sql.LitInteger, Value: strconv.Itoa(n)}
}
