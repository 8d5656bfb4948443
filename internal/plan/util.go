package plan

import (
	"strings"

	"sluice/internal/expr"
)

func joinStrings(ss []string) string { return strings.Join(ss, ", ") }

// aggKey is exprKey for an aggregate call: sum(t.v) and sum(t2.v) of a
// self join print alike but are two aggregates.
func aggKey(a *expr.Aggregate) string {
	var b strings.Builder
	b.WriteString(a.Name)
	if a.Distinct {
		b.WriteString(" DISTINCT")
	}
	if a.Filtered {
		b.WriteString(" FILTERED")
	}
	for _, x := range a.Args {
		b.WriteString("\x00")
		b.WriteString(exprKey(x))
	}
	return b.String()
}

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
