package sql

import "strings"

// TableFunction is a table-valued function in FROM: range(...) or a
// generator (explode, posexplode, inline, stack, their _outer forms)
// with an optional alias and column names, as in Spark. Lateral is the
// LATERAL keyword, written before it; a generator may read the columns
// of the FROM items to its left with or without it, as in Spark.
type TableFunction struct {
	At      Pos
	Call    *Call
	Lateral bool
	Alias   string
	// Columns name the function's columns (AS t(a, b)); nil when not
	// written.
	Columns []string
}

// LateralView is Input LATERAL VIEW [OUTER] generator(args) Table [AS
// c1, c2, ...]: each row of Input joined with the rows its generator
// yields for it. Columns are nil when not written (the generator's
// default names are then used).
type LateralView struct {
	At      Pos
	Input   TableExpr
	Outer   bool
	Call    *Call
	Table   string
	Columns []string
}

func (t *TableFunction) Pos() Pos { return t.At }
func (l *LateralView) Pos() Pos   { return l.At }

func (*TableFunction) tableExpr() {}
func (*LateralView) tableExpr()   {}

var (
	_ TableExpr = (*TableFunction)(nil)
	_ TableExpr = (*LateralView)(nil)
)

func (t *TableFunction) String() string {
	var b strings.Builder
	if t.Lateral {
		b.WriteString("LATERAL ")
	}
	b.WriteString(t.Call.String())
	b.WriteString(aliasString(t.Alias))
	if len(t.Columns) > 0 {
		b.WriteString("(" + identList(t.Columns) + ")")
	}
	return b.String()
}

func (l *LateralView) String() string {
	var b strings.Builder
	b.WriteString(l.Input.String())
	b.WriteString(" LATERAL VIEW ")
	if l.Outer {
		b.WriteString("OUTER ")
	}
	b.WriteString(l.Call.String())
	b.WriteString(" " + QuoteIdent(l.Table))
	if len(l.Columns) > 0 {
		b.WriteString(" AS " + identList(l.Columns))
	}
	return b.String()
}
