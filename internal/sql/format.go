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
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return precCmp
	case OpConcat:
		return precConcat
	case OpAdd, OpSub:
		return precAdd
	case OpMul, OpDiv, OpMod:
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
	case *Is, *InList, *Between, *Like:
		return precCmp
	case *Subscript, *FieldAccess:
		return precPostfix
	}
	return precAtom
}

// writeExpr prints e, parenthesized when its precedence is below min.
func writeExpr(b *strings.Builder, e Expr, min int) {
	if exprPrec(e) < min {
		b.WriteByte('(')
		b.WriteString(e.String())
		b.WriteByte(')')
		return
	}
	b.WriteString(e.String())
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

// QuoteString prints s as a single-quoted SQL string literal.
func QuoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'':
			b.WriteString("''")
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func (e *Literal) String() string {
	switch e.Kind {
	case LitString:
		return QuoteString(e.Value)
	case LitDate:
		return "DATE " + QuoteString(e.Value)
	case LitTimestamp:
		return "TIMESTAMP " + QuoteString(e.Value)
	case LitInterval:
		return "INTERVAL " + QuoteString(e.Value)
	case LitIdent:
		return QuoteIdent(e.Value)
	}
	return e.Value
}

func (e *ColumnRef) String() string { return quoteParts(e.Parts) }

func (e *Star) String() string {
	if len(e.Qualifier) == 0 {
		return "*"
	}
	return quoteParts(e.Qualifier) + ".*"
}

func (e *Unary) String() string {
	var b strings.Builder
	if e.Op == OpNot {
		b.WriteString("NOT ")
		writeExpr(&b, e.X, precNot)
		return b.String()
	}
	b.WriteString(e.Op)
	var x strings.Builder
	writeExpr(&x, e.X, precUnary)
	// "- -1" must not become "--1", which is a comment.
	if s := x.String(); strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		b.WriteByte(' ')
	}
	b.WriteString(x.String())
	return b.String()
}

func (e *Binary) String() string {
	var b strings.Builder
	p := binaryPrec(e.Op)
	writeExpr(&b, e.L, p)
	b.WriteByte(' ')
	b.WriteString(e.Op)
	b.WriteByte(' ')
	writeExpr(&b, e.R, p+1)
	return b.String()
}

func not(n bool) string {
	if n {
		return "NOT "
	}
	return ""
}

func (e *Is) String() string {
	var b strings.Builder
	writeExpr(&b, e.X, precCmp)
	b.WriteString(" IS ")
	b.WriteString(not(e.Not))
	b.WriteString([...]string{"NULL", "TRUE", "FALSE"}[e.Is])
	return b.String()
}

func writeList(b *strings.Builder, es []Expr) {
	for i, x := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x.String())
	}
}

func (e *InList) String() string {
	var b strings.Builder
	writeExpr(&b, e.X, precCmp)
	b.WriteByte(' ')
	b.WriteString(not(e.Not))
	b.WriteString("IN (")
	writeList(&b, e.List)
	b.WriteByte(')')
	return b.String()
}

func (e *Between) String() string {
	var b strings.Builder
	writeExpr(&b, e.X, precCmp)
	b.WriteByte(' ')
	b.WriteString(not(e.Not))
	b.WriteString("BETWEEN ")
	writeExpr(&b, e.Lo, precConcat)
	b.WriteString(" AND ")
	writeExpr(&b, e.Hi, precConcat)
	return b.String()
}

func (e *Like) String() string {
	var b strings.Builder
	writeExpr(&b, e.X, precCmp)
	b.WriteByte(' ')
	b.WriteString(not(e.Not))
	b.WriteString(e.Op)
	b.WriteByte(' ')
	writeExpr(&b, e.Pattern, precConcat)
	if e.Escape != nil {
		b.WriteString(" ESCAPE ")
		writeExpr(&b, e.Escape, precConcat)
	}
	return b.String()
}

func (w *When) String() string {
	return "WHEN " + w.Cond.String() + " THEN " + w.Then.String()
}

func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	if e.Operand != nil {
		b.WriteByte(' ')
		b.WriteString(e.Operand.String())
	}
	for _, w := range e.Whens {
		b.WriteByte(' ')
		b.WriteString(w.String())
	}
	if e.Else != nil {
		b.WriteString(" ELSE ")
		b.WriteString(e.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}

func (e *Cast) String() string {
	fn := "CAST("
	if e.Try {
		fn = "TRY_CAST("
	}
	return fn + e.X.String() + " AS " + types.SQLName(e.Type) + ")"
}

func (e *Extract) String() string {
	return "EXTRACT(" + e.Field + " FROM " + e.X.String() + ")"
}

// callNeedsQuote lists names that the parser reads as special forms when
// followed by '(' and so must be back-quoted to stay ordinary calls.
var callNeedsQuote = map[string]bool{"CAST": true, "TRY_CAST": true, "EXTRACT": true}

func (e *Call) String() string {
	var b strings.Builder
	name := QuoteIdent(e.Name)
	if callNeedsQuote[strings.ToUpper(e.Name)] {
		name = "`" + strings.ReplaceAll(e.Name, "`", "``") + "`"
	}
	b.WriteString(name)
	b.WriteByte('(')
	if e.Star {
		b.WriteByte('*')
	} else {
		if e.Distinct {
			b.WriteString("DISTINCT ")
		}
		writeList(&b, e.Args)
	}
	b.WriteByte(')')
	return b.String()
}

func (e *Subscript) String() string {
	var b strings.Builder
	writeExpr(&b, e.X, precPostfix)
	b.WriteByte('[')
	b.WriteString(e.Index.String())
	b.WriteByte(']')
	return b.String()
}

func (e *FieldAccess) String() string {
	var b strings.Builder
	// A ColumnRef base would merge with the field into one dotted name and
	// a number would swallow the dot, so keep those parenthesized.
	switch e.X.(type) {
	case *ColumnRef, *Literal:
		b.WriteString("(" + e.X.String() + ")")
	default:
		writeExpr(&b, e.X, precPostfix)
	}
	b.WriteByte('.')
	b.WriteString(QuoteIdent(e.Name))
	return b.String()
}
