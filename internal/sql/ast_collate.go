package sql

import "strings"

// Collate is x COLLATE name, Spark 4's explicit collation of a string
// (UTF8_BINARY, UTF8_LCASE, ...). Name keeps its case as written; the
// binder decides which collations it supports.
type Collate struct {
	At   Pos
	X    Expr
	Name string
}

func (e *Collate) Pos() Pos { return e.At }
func (*Collate) exprNode()  {}

var _ Expr = (*Collate)(nil)

func (e *Collate) format(b *strings.Builder) {
	writeExpr(b, e.X, precPostfix)
	b.WriteString(" COLLATE ")
	b.WriteString(QuoteIdent(e.Name))
}

func (e *Collate) String() string { return exprString(e) }
