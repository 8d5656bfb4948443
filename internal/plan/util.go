package plan

import (
	"strings"

	"sluice/internal/expr"
)

func joinStrings(ss []string) string { return strings.Join(ss, ", ") }

// exprKey is e's text with each column's index: two expressions with the
// same key compute the same thing over the same input (String alone
// prints names, which a self-join or a domain repeats).
func exprKey(e expr.Expr) string {
	return expr.Transform(e, func(x expr.Expr) expr.Expr {
		if c, ok := x.(*expr.Column); ok {
			return expr.Col(c.Index, c.Name+"#"+itoa(c.Index), c.Type())
		}
		return x
	}).String()
}
