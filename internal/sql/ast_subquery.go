package sql

import "strings"

// Subquery is a parenthesized query used as a value: a scalar subquery,
// which yields the one column of its at most one row (NULL for none).
type Subquery struct {
	At    Pos
	Query *Query
}

// Exists is EXISTS (query): TRUE when the query yields a row. NOT EXISTS
// is a Unary NOT around it.
type Exists struct {
	At    Pos
	Query *Query
}

// InSubquery is x [NOT] IN (query); the query yields one column.
type InSubquery struct {
	At    Pos
	X     Expr
	Not   bool
	Query *Query
}

// QuantifiedSubquery is x op ANY (query), x op SOME (query) or x op ALL
// (query), op a comparison; the query yields one column.
type QuantifiedSubquery struct {
	At    Pos
	X     Expr
	Op    string // OpEq, OpNe, OpLt, OpLe, OpGt, OpGe
	All   bool   // ALL; false is ANY (SOME)
	Query *Query
}

func (e *QuantifiedSubquery) Pos() Pos { return e.At }
func (*QuantifiedSubquery) exprNode()  {}

var _ Expr = (*QuantifiedSubquery)(nil)

func (e *QuantifiedSubquery) format(b *strings.Builder) {
	writeExpr(b, e.X, precCmp)
	b.WriteString(" " + e.Op + " ")
	if e.All {
		b.WriteString("ALL (")
	} else {
		b.WriteString("ANY (")
	}
	b.WriteString(e.Query.String())
	b.WriteByte(')')
}

func (e *QuantifiedSubquery) String() string { return exprString(e) }

// Grouping kinds of a GroupingSets element of GROUP BY.
const (
	GroupRollup = "ROLLUP"
	GroupCube   = "CUBE"
	GroupSets   = "GROUPING SETS"
)

// GroupingSets is ROLLUP (...), CUBE (...) or GROUPING SETS (...) in a
// GROUP BY list. For ROLLUP and CUBE each element of Sets is one
// (possibly parenthesized, composite) column group; for GROUPING SETS
// each is one grouping set, () being the empty one. It is an Expr only so
// that it can stand in Select.GroupBy; the binder expands it.
type GroupingSets struct {
	At   Pos
	Kind string
	Sets [][]Expr
}

func (e *Subquery) Pos() Pos     { return e.At }
func (e *Exists) Pos() Pos       { return e.At }
func (e *InSubquery) Pos() Pos   { return e.At }
func (e *GroupingSets) Pos() Pos { return e.At }

func (*Subquery) exprNode()     {}
func (*Exists) exprNode()       {}
func (*InSubquery) exprNode()   {}
func (*GroupingSets) exprNode() {}

var (
	_ Expr = (*Subquery)(nil)
	_ Expr = (*Exists)(nil)
	_ Expr = (*InSubquery)(nil)
	_ Expr = (*GroupingSets)(nil)
)

func (e *Subquery) format(b *strings.Builder) {
	b.WriteByte('(')
	b.WriteString(e.Query.String())
	b.WriteByte(')')
}

func (e *Exists) format(b *strings.Builder) {
	b.WriteString("EXISTS (")
	b.WriteString(e.Query.String())
	b.WriteByte(')')
}

func (e *InSubquery) format(b *strings.Builder) {
	writeExpr(b, e.X, precCmp)
	b.WriteByte(' ')
	b.WriteString(not(e.Not))
	b.WriteString("IN (")
	b.WriteString(e.Query.String())
	b.WriteByte(')')
}

func (e *GroupingSets) format(b *strings.Builder) {
	b.WriteString(e.Kind)
	b.WriteString(" (")
	for i, set := range e.Sets {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(set) == 1 && e.Kind != GroupSets {
			set[0].format(b)
			continue
		}
		b.WriteByte('(')
		writeList(b, set)
		b.WriteByte(')')
	}
	b.WriteByte(')')
}

func (e *Subquery) String() string     { return exprString(e) }
func (e *Exists) String() string       { return exprString(e) }
func (e *InSubquery) String() string   { return exprString(e) }
func (e *GroupingSets) String() string { return exprString(e) }
