package plan

import "sluice/internal/sql"

// walkSQL visits e and its sub-expressions depth first; fn returning
// false skips a node's children.
func walkSQL(e sql.Expr, fn func(sql.Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, k := range sqlChildren(e) {
		walkSQL(k, fn)
	}
}

// sqlChildren lists e's direct sub-expressions (nil entries included).
func sqlChildren(e sql.Expr) []sql.Expr {
	var kids []sql.Expr
	switch t := e.(type) {
	case *sql.Unary:
		kids = []sql.Expr{t.X}
	case *sql.Binary:
		kids = []sql.Expr{t.L, t.R}
	case *sql.Is:
		kids = []sql.Expr{t.X}
	case *sql.InList:
		kids = append([]sql.Expr{t.X}, t.List...)
	case *sql.Between:
		kids = []sql.Expr{t.X, t.Lo, t.Hi}
	case *sql.Like:
		kids = []sql.Expr{t.X, t.Pattern, t.Escape}
	case *sql.Case:
		kids = []sql.Expr{t.Operand, t.Else}
		for _, w := range t.Whens {
			kids = append(kids, w.Cond, w.Then)
		}
	case *sql.Cast:
		kids = []sql.Expr{t.X}
	case *sql.Extract:
		kids = []sql.Expr{t.X}
	case *sql.Collate:
		kids = []sql.Expr{t.X}
	case *sql.InSubquery:
		kids = []sql.Expr{t.X}
	case *sql.Call:
		kids = t.Args
		if t.Filter != nil {
			kids = append(append([]sql.Expr{}, kids...), t.Filter)
		}
		if t.Over != nil {
			kids = append(append([]sql.Expr{}, kids...), t.Over.PartitionBy...)
			for _, o := range t.Over.OrderBy {
				kids = append(kids, o.Expr)
			}
		}
	case *sql.Subscript:
		kids = []sql.Expr{t.X, t.Index}
	case *sql.FieldAccess:
		kids = []sql.Expr{t.X}
	case *sql.Lambda:
		kids = []sql.Expr{t.Body}
	}
	return kids
}
