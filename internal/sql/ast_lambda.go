package sql

import "strings"

// Lambda is a higher-order function's argument, x -> body or
// (acc, x) -> body, as in transform(arr, x -> x + 1). It is only parsed
// as a call argument; the binder gives each parameter its type from the
// call it belongs to, and a parameter shadows a column of the same name.
type Lambda struct {
	At     Pos
	Params []string
	Body   Expr
}

func (e *Lambda) Pos() Pos { return e.At }
func (*Lambda) exprNode()  {}

var _ Expr = (*Lambda)(nil)

func (e *Lambda) format(b *strings.Builder) {
	if len(e.Params) == 1 {
		b.WriteString(QuoteIdent(e.Params[0]))
	} else {
		b.WriteByte('(')
		for i, p := range e.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(p))
		}
		b.WriteByte(')')
	}
	b.WriteString(" -> ")
	e.Body.format(b)
}

func (e *Lambda) String() string { return exprString(e) }
