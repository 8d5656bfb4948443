package sql

import (
	"strings"

	"sluice/internal/types"
)

// Operator precedence, lowest first. The printer wraps a child in
// parentheses only when its precedence is below what its parent needs, so
// canonical SQL stays readable in EXPLAIN and still re-parses identically.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp // comparison, IS, IN, LIKE, BETWEEN
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precConcat
	precAdd
	precMul
	precUnary
	precPostfix
	precAtom
)

func binaryPrec(op string) int {
	switch op {
	case OpOr:
		return precOr
	case OpAnd:
		return precAnd
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe, OpNullSafeEq:
		return precCmp
	case OpBitOr:
		return precBitOr
	case OpBitXor:
		return precBitXor
	case OpBitAnd:
		return precBitAnd
	case OpShiftLeft, OpShiftRight, OpShiftRU:
		return precShift
	case OpConcat:
		return precConcat
	case OpAdd, OpSub:
		return precAdd
	case OpMul, OpDiv, OpMod, OpIntDiv:
		return precMul
	}
	return precAtom
}

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		return binaryPrec(e.Op)
	case *Unary:
		if e.Op == OpNot {
			return precNot
		}
		return precUnary
	case *Is, *InList, *InSubquery, *QuantifiedSubquery, *Between, *Like:
		return precCmp
	case *Subscript, *FieldAccess, *Collate:
		return precPostfix
	}
	return precAtom
}

// writeExpr prints e, parenthesized when its precedence is below min.
func writeExpr(b *strings.Builder, e Expr, min int) {
	if exprPrec(e) < min {
		b.WriteByte('(')
		e.format(b)
		b.WriteByte(')')
		return
	}
	e.format(b)
}

// exprString prints through one builder: deep trees (a long chain of
// a + b + ...) would otherwise copy their text once per level.
func exprString(e Expr) string {
	var b strings.Builder
	e.format(&b)
	return b.String()
}

// QuoteIdent back-quotes name when it is not a plain identifier or when it
// is a reserved word, so that printed SQL always re-parses.
func QuoteIdent(name string) string {
	if isReserved(name) {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return types.QuoteIdent(name)
}

func quoteParts(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = QuoteIdent(p)
	}
	return strings.Join(q, ".")
}

// QuoteString prints s as a single-quoted SQL string literal in Spark's
// escaping (unescapeSpark reads it back): a quote is \', a backslash \\,
// and NUL \u0000 (\0 before a digit would read as an octal escape).
func QuoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\u0000`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func (e *Literal) format(b *strings.Builder) {
	switch e.Kind {
	case LitString:
		b.WriteString(QuoteString(e.Value))
	case LitDate:
		b.WriteString("DATE " + QuoteString(e.Value))
	case LitTimestamp:
		b.WriteString("TIMESTAMP " + QuoteString(e.Value))
	case LitInterval:
		b.WriteString("INTERVAL " + QuoteString(e.Value))
	case LitIdent:
		b.WriteString(QuoteIdent(e.Value))
	case LitBinary:
		b.WriteString("X'" + e.Value + "'")
	default:
		b.WriteString(e.Value + e.Suffix)
	}
}

func (e *ColumnRef) format(b *strings.Builder) { b.WriteString(quoteParts(e.Parts)) }

func (e *Star) format(b *strings.Builder) {
	if len(e.Qualifier) == 0 {
		b.WriteByte('*')
		return
	}
	b.WriteString(quoteParts(e.Qualifier) + ".*")
}

func (e *Unary) format(b *strings.Builder) {
	if e.Op == OpNot {
		b.WriteString("NOT ")
		writeExpr(b, e.X, precNot)
		return
	}
	b.WriteString(e.Op)
	// "- -1" must not become "--1", which is a comment.
	if u, ok := e.X.(*Unary); ok && u.Op != OpNot {
		b.WriteByte(' ')
	}
	writeExpr(b, e.X, precUnary)
}

func (e *Binary) format(b *strings.Builder) {
	p := binaryPrec(e.Op)
	writeExpr(b, e.L, p)
	b.WriteByte(' ')
	b.WriteString(e.Op)
	b.WriteByte(' ')
	writeExpr(b, e.R, p+1)
}

func not(n bool) string {
	if n {
		return "NOT "
	}
	return ""
}

func (e *Is) format(b *strings.Builder) {
	writeExpr(b, e.X, precCmp)
	b.WriteString(" IS ")
	b.WriteString(not(e.Not))
	b.WriteString([...]string{"NULL", "TRUE", "FALSE"}[e.Is])
}

func writeList(b *strings.Builder, es []Expr) {
	for i, x := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		x.format(b)
	}
}

func (e *InList) format(b *strings.Builder) {
	writeExpr(b, e.X, precCmp)
	b.WriteByte(' ')
	b.WriteString(not(e.Not))
	b.WriteString("IN (")
	writeList(b, e.List)
	b.WriteByte(')')
}

func (e *Between) format(b *strings.Builder) {
	writeExpr(b, e.X, precCmp)
	b.WriteByte(' ')
	b.WriteString(not(e.Not))
	b.WriteString("BETWEEN ")
	writeExpr(b, e.Lo, precConcat)
	b.WriteString(" AND ")
	writeExpr(b, e.Hi, precConcat)
}

func (e *Like) format(b *strings.Builder) {
	writeExpr(b, e.X, precCmp)
	b.WriteByte(' ')
	b.WriteString(not(e.Not))
	b.WriteString(e.Op)
	b.WriteByte(' ')
	writeExpr(b, e.Pattern, precConcat)
	if e.Escape != nil {
		b.WriteString(" ESCAPE ")
		writeExpr(b, e.Escape, precConcat)
	}
}

func (w *When) format(b *strings.Builder) {
	b.WriteString("WHEN ")
	w.Cond.format(b)
	b.WriteString(" THEN ")
	w.Then.format(b)
}

func (e *Case) format(b *strings.Builder) {
	b.WriteString("CASE")
	if e.Operand != nil {
		b.WriteByte(' ')
		e.Operand.format(b)
	}
	for _, w := range e.Whens {
		b.WriteByte(' ')
		w.format(b)
	}
	if e.Else != nil {
		b.WriteString(" ELSE ")
		e.Else.format(b)
	}
	b.WriteString(" END")
}

func (e *Cast) format(b *strings.Builder) {
	if e.Try {
		b.WriteString("TRY_")
	}
	b.WriteString("CAST(")
	e.X.format(b)
	b.WriteString(" AS " + types.SQLName(e.Type) + ")")
}

func (e *Extract) format(b *strings.Builder) {
	b.WriteString("EXTRACT(" + e.Field + " FROM ")
	e.X.format(b)
	b.WriteByte(')')
}

// callNeedsQuote lists names that the parser reads as special forms when
// followed by '(' and so must be back-quoted to stay ordinary calls.
var callNeedsQuote = map[string]bool{"CAST": true, "TRY_CAST": true, "EXTRACT": true, "COLLATE": true}

func (e *Call) format(b *strings.Builder) {
	name := QuoteIdent(e.Name)
	switch strings.ToUpper(e.Name) {
	case "LIKE", "ILIKE", "RLIKE", "REGEXP", "EXISTS":
		// Only the call form reaches here (x LIKE p is a Like node), and
		// the parser reads these names as calls before '('.
		name = e.Name
	}
	if callNeedsQuote[strings.ToUpper(e.Name)] {
		name = "`" + strings.ReplaceAll(e.Name, "`", "``") + "`"
	}
	b.WriteString(name)
	b.WriteByte('(')
	if e.WithinGroup {
		writeList(b, e.Args[1:])
		b.WriteString(") WITHIN GROUP (ORDER BY ")
		e.Args[0].format(b)
		if e.WithinDesc {
			b.WriteString(" DESC")
		}
	} else if e.Star {
		b.WriteByte('*')
	} else {
		if e.Distinct {
			b.WriteString("DISTINCT ")
		}
		writeList(b, e.Args)
	}
	b.WriteByte(')')
	if e.IgnoreNulls {
		b.WriteString(" IGNORE NULLS")
	}
	if e.Filter != nil {
		b.WriteString(" FILTER (WHERE ")
		e.Filter.format(b)
		b.WriteByte(')')
	}
	if e.Over != nil {
		b.WriteString(" " + e.Over.overString())
	}
}

func (e *Subscript) format(b *strings.Builder) {
	writeExpr(b, e.X, precPostfix)
	b.WriteByte('[')
	e.Index.format(b)
	b.WriteByte(']')
}

func (e *FieldAccess) format(b *strings.Builder) {
	// A ColumnRef base would merge with the field into one dotted name and
	// a number would swallow the dot, so keep those parenthesized.
	switch e.X.(type) {
	case *ColumnRef, *Literal:
		b.WriteByte('(')
		e.X.format(b)
		b.WriteByte(')')
	default:
		writeExpr(b, e.X, precPostfix)
	}
	b.WriteByte('.')
	b.WriteString(QuoteIdent(e.Name))
}

func (e *Literal) String() string     { return exprString(e) }
func (e *ColumnRef) String() string   { return exprString(e) }
func (e *Star) String() string        { return exprString(e) }
func (e *Unary) String() string       { return exprString(e) }
func (e *Binary) String() string      { return exprString(e) }
func (e *Is) String() string          { return exprString(e) }
func (e *InList) String() string      { return exprString(e) }
func (e *Between) String() string     { return exprString(e) }
func (e *Like) String() string        { return exprString(e) }
func (e *Case) String() string        { return exprString(e) }
func (e *Cast) String() string        { return exprString(e) }
func (e *Extract) String() string     { return exprString(e) }
func (e *Call) String() string        { return exprString(e) }
func (e *Subscript) String() string   { return exprString(e) }
func (e *FieldAccess) String() string { return exprString(e) }

func (w *When) String() string {
	var b strings.Builder
	w.format(&b)
	return b.String()
}
