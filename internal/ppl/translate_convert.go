package ppl

import (
	"sluice/internal/sql"
)

// convert replaces each field by ppl_convert('fn', field), a DOUBLE, in
// place, or adds it under the as name; ctime and mktime are ppl_ctime and
// ppl_mktime with the timeformat; none(f) keeps the value as is.
func (t *translator) convert(c *Convert) error {
	var names []string
	var exprs []sql.Expr
	for _, cv := range c.Convs {
		x, err := t.ref(cv.Field)
		if err != nil {
			return err
		}
		name := cv.Field.Name
		if r, ok := x.(*sql.ColumnRef); ok && len(r.Parts) == 1 {
			name = r.Parts[0]
		}
		if cv.As != "" {
			name = cv.As
		}
		var e sql.Expr = x
		switch cv.Func {
		case "none":
		case "ctime", "mktime":
			args := []sql.Expr{x}
			if c.TimeFormat != "" {
				args = append(args, strLit(cv.At, c.TimeFormat))
			}
			e = &sql.Call{At: cv.At, Name: "ppl_" + cv.Func, Args: args}
		default:
			e = &sql.Call{At: cv.At, Name: "ppl_convert", Args: []sql.Expr{strLit(cv.At, cv.Func), x}}
		}
		names, exprs = append(names, name), append(exprs, e)
	}
	return t.replaceOrAppend(c.At, names, exprs)
}
