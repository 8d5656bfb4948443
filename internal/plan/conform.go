package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// ConformToTable projects a query's output onto a table's columns: by
// position, or by the INSERT's column list (unlisted columns get NULL),
// casting each value to the column's type.
// Every error it returns is the statement's: a user error.
func ConformToTable(n Node, target *arrow.Schema, cols []string, table string) (Node, error) {
	out, err := conform(n, target, cols, table)
	return out, usererr.Wrap(usererr.Invalid, err)
}

func conform(n Node, target *arrow.Schema, cols []string, table string) (Node, error) {
	src := n.Schema()
	srcFor := make([]int, target.NumFields())
	for i := range srcFor {
		srcFor[i] = -1
	}
	if len(cols) == 0 {
		if src.NumFields() != target.NumFields() {
			return nil, fmt.Errorf("INSERT INTO %s: the query has %d columns but the table has %d", table, src.NumFields(), target.NumFields())
		}
		for i := range srcFor {
			srcFor[i] = i
		}
	} else {
		if len(cols) != src.NumFields() {
			return nil, fmt.Errorf("INSERT INTO %s: %d columns listed but the query has %d", table, len(cols), src.NumFields())
		}
		for j, c := range cols {
			found := false
			for i, f := range target.Fields() {
				if strings.EqualFold(f.Name, c) {
					if srcFor[i] >= 0 {
						return nil, fmt.Errorf("INSERT INTO %s: column %s listed twice", table, c)
					}
					srcFor[i], found = j, true
				}
			}
			if !found {
				return nil, fmt.Errorf("INSERT INTO %s: no column %s", table, c)
			}
		}
	}
	exprs := make([]expr.Expr, target.NumFields())
	names := make([]string, target.NumFields())
	for i, f := range target.Fields() {
		names[i] = f.Name
		var e expr.Expr
		if j := srcFor[i]; j >= 0 {
			sf := src.Field(j)
			e = expr.Col(j, sf.Name, sf.Type)
		} else {
			var err error
			if e, err = expr.Lit(nil, types.Null); err != nil {
				return nil, err
			}
		}
		if !arrow.TypeEqual(e.Type(), f.Type) {
			c, err := expr.Cast(e, f.Type)
			if err != nil {
				return nil, fmt.Errorf("INSERT INTO %s: column %s: %w", table, f.Name, err)
			}
			e = c
		}
		exprs[i] = e
	}
	return &Project{Input: n, Exprs: exprs, Names: names}, nil
}
