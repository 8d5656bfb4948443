package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// nullMissing makes every argument of a PPL coalesce that names a field
// the input does not have a NULL, as the plugin reads a missing field
// there; a missing field anywhere else stays an error.
func nullMissing(e sql.Expr, cols []string) {
	c, ok := e.(*sql.Call)
	if !ok {
		return
	}
	for i, a := range c.Args {
		if r, isRef := a.(*sql.ColumnRef); isRef && c.Name == "ppl_coalesce" && len(r.Parts) == 1 && !hasColumn(cols, r.Parts[0]) {
			c.Args[i] = &sql.Literal{At: r.At, Kind: sql.LitNull, Value: "NULL"}
			continue
		}
		nullMissing(a, cols)
	}
}

func hasColumn(cols []string, name string) bool {
	for _, c := range cols {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}
