package sql

import (
	"strconv"
	"strings"

	"sluice/internal/types"
)

// ColumnNamer names a column reference inside a generated column name:
// the binder knows which leading parts of a.b.c are a table and which
// are struct fields, the syntax does not. It answers the parts that name
// the column and its fields, or ok false when the reference is no column
// (current_date, a function written without parentheses). A nil
// ColumnNamer names a reference by its last part.
type ColumnNamer func(*ColumnRef) (parts []string, ok bool)

// SparkName is the column name Spark 3.5 gives an unaliased select item
// (its ResolveAliases): a column or struct field keeps its own name, a
// CAST of a column the column's, anything else the expression printed
// as Spark's toPrettySQL prints it, where string literals lose their
// quotes, operators are parenthesized and function names are Spark's
// (count(*) is count(1)). The names are checked against pyspark in
// TestSparkColumnNames.
func SparkName(e Expr, refs ColumnNamer) string {
	switch t := e.(type) {
	case *ColumnRef:
		if refs != nil {
			if _, ok := refs(t); !ok && len(t.Parts) == 1 {
				return strings.ToLower(t.Parts[0]) + "()"
			}
		}
		return t.Parts[len(t.Parts)-1]
	case *FieldAccess:
		if _, ok := t.X.(*ColumnRef); ok { // (s).f reads as the dotted name s.f
			return t.Name
		}
		if c, ok := t.X.(*Call); ok && keepFieldName[strings.ToLower(c.Name)] {
			return t.Name
		}
	case *Cast:
		// A cast of a column keeps the column's name; one of a struct
		// field does not (Spark's Cast(NamedExpression) rule).
		if c, ok := t.X.(*ColumnRef); ok {
			if refs == nil {
				return c.Parts[len(c.Parts)-1]
			}
			if parts, ok := refs(c); ok && len(parts) == 1 {
				return parts[0]
			}
		}
	}
	p := prettyPrinter{refs: refs}
	p.expr(e)
	return p.b.String()
}

// keepFieldName are the calls whose fields are named by the field alone,
// TUMBLE(ts, '1 hour').start as start: Sluice's window functions Spark
// lacks, named so before Spark's names were followed (tables of streams
// and materialized views made then have these names).
var keepFieldName = map[string]bool{"tumble": true, "hop": true, "session": true}

// prettyPrinter writes Spark's toPrettySQL of an expression.
type prettyPrinter struct {
	b    strings.Builder
	refs ColumnNamer
	// lambda holds the parameters of the lambdas being printed: Spark
	// names each namedlambdavariable().
	lambda []string
}

func (p *prettyPrinter) w(s string) { p.b.WriteString(s) }

func (p *prettyPrinter) list(es []Expr) {
	for i, x := range es {
		if i > 0 {
			p.w(", ")
		}
		p.expr(x)
	}
}

// paren writes (open x close) around f's output.
func (p *prettyPrinter) paren(f func()) {
	p.w("(")
	f()
	p.w(")")
}

func (p *prettyPrinter) not(f func()) {
	p.paren(func() {
		p.w("NOT ")
		f()
	})
}

// notIf writes f's output, negated when n.
func (p *prettyPrinter) notIf(n bool, f func()) {
	if n {
		p.not(f)
		return
	}
	f()
}

// sparkOps are the binary operators Spark prints differently.
var sparkOps = map[string]string{OpIntDiv: "div"}

func (p *prettyPrinter) expr(e Expr) {
	switch t := e.(type) {
	case *Literal:
		p.w(prettyLiteral(t))
	case *ColumnRef:
		p.column(t)
	case *Star:
		p.w(t.String())
	case *Unary:
		p.unary(t)
	case *Binary:
		p.binary(t)
	case *Is:
		p.is(t)
	case *InList:
		in := func() {
			p.paren(func() {
				p.expr(t.X)
				p.w(" IN (")
				p.list(t.List)
				p.w(")")
			})
		}
		p.notIf(t.Not, in)
	case *InSubquery:
		in := func() {
			p.paren(func() {
				p.expr(t.X)
				p.w(" IN (listquery())")
			})
		}
		p.notIf(t.Not, in)
	case *Subquery:
		p.w("scalarsubquery()")
	case *Exists:
		p.w("exists()")
	case *Between:
		// Spark 3.5 parses BETWEEN into the two comparisons.
		both := func() {
			p.paren(func() {
				p.binary(&Binary{Op: OpGe, L: t.X, R: t.Lo})
				p.w(" AND ")
				p.binary(&Binary{Op: OpLe, L: t.X, R: t.Hi})
			})
		}
		p.notIf(t.Not, both)
	case *Like:
		p.like(t)
	case *Case:
		p.caseExpr(t)
	case *Cast:
		if t.Try {
			p.w("TRY_")
		}
		p.w("CAST(")
		p.expr(t.X)
		p.w(" AS " + types.SQLName(t.Type) + ")")
	case *Extract:
		p.w("extract(" + t.Field + " FROM ")
		p.expr(t.X)
		p.w(")")
	case *Call:
		p.call(t)
	case *Subscript:
		p.expr(t.X)
		p.w("[")
		p.expr(t.Index)
		p.w("]")
	case *FieldAccess:
		p.expr(t.X)
		p.w("." + t.Name)
	case *Lambda:
		p.lambda = append(p.lambda, t.Params...)
		p.w("lambdafunction(")
		p.expr(t.Body)
		for range t.Params {
			p.w(", namedlambdavariable()")
		}
		p.w(")")
		p.lambda = p.lambda[:len(p.lambda)-len(t.Params)]
	default:
		p.w(e.String())
	}
}

func (p *prettyPrinter) column(c *ColumnRef) {
	for _, v := range p.lambda {
		if strings.EqualFold(v, c.Parts[0]) {
			p.w("namedlambdavariable()")
			for _, f := range c.Parts[1:] {
				p.w("." + f)
			}
			return
		}
	}
	if p.refs != nil {
		parts, ok := p.refs(c)
		if !ok && len(c.Parts) == 1 {
			p.w(strings.ToLower(c.Parts[0]) + "()")
			return
		}
		if ok {
			p.w(strings.Join(parts, "."))
			return
		}
	}
	p.w(c.Parts[len(c.Parts)-1])
}

// prettyLiteral is a literal as Spark's column names show it: strings
// unquoted, numbers as their typed value prints, booleans lower-case.
func prettyLiteral(l *Literal) string {
	switch l.Kind {
	case LitString:
		return l.Value
	case LitBool:
		return strings.ToLower(l.Value)
	case LitFloat:
		f, err := strconv.ParseFloat(l.Value, 64)
		if err != nil {
			return l.Value
		}
		if l.Suffix == "F" {
			return strconv.FormatFloat(float64(float32(f)), 'f', -1, 32) + dotZero(float64(float32(f)))
		}
		return types.FormatDouble(f)
	case LitDate:
		return "DATE '" + l.Value + "'"
	case LitTimestamp:
		v := l.Value
		if !strings.ContainsAny(v, " T") {
			v += " 00:00:00"
		}
		return "TIMESTAMP '" + strings.Replace(v, "T", " ", 1) + "'"
	case LitInterval:
		return prettyInterval(l.Value)
	case LitBinary:
		return "X'" + l.Value + "'"
	}
	return l.Value
}

func dotZero(f float64) string {
	if f == float64(int64(f)) && f < 1e7 && f > -1e7 {
		return ".0"
	}
	return ""
}

// prettyInterval prints a one-unit interval as Spark's ANSI interval
// literal does (INTERVAL '05' MINUTE); other intervals keep their text.
func prettyInterval(v string) string {
	n, unit, ok := strings.Cut(strings.Trim(v, "'"), " ")
	u := strings.TrimSuffix(strings.ToUpper(unit), "S")
	if _, err := strconv.Atoi(n); !ok || err != nil || strings.Contains(unit, " ") {
		return "INTERVAL '" + v + "'"
	}
	switch u {
	case "HOUR", "MINUTE", "SECOND":
		if len(n) == 1 {
			n = "0" + n
		}
	case "YEAR", "MONTH", "DAY":
	default:
		return "INTERVAL '" + v + "'"
	}
	return "INTERVAL '" + n + "' " + u
}

func (p *prettyPrinter) unary(u *Unary) {
	switch u.Op {
	case OpNot:
		p.not(func() { p.expr(u.X) })
	case OpBitNot:
		p.w("~")
		p.expr(u.X)
	default:
		if l, ok := u.X.(*Literal); ok && u.Op == OpNeg && (l.Kind == LitInteger || l.Kind == LitDecimal || l.Kind == LitFloat) {
			// Spark's parser folds the sign into the literal.
			p.w("-" + prettyLiteral(l))
			return
		}
		p.paren(func() {
			p.w(u.Op + " ")
			p.expr(u.X)
		})
	}
}

func (p *prettyPrinter) binary(b *Binary) {
	switch b.Op {
	case OpConcat:
		p.call(&Call{Name: "concat", Args: []Expr{b.L, b.R}})
		return
	case OpNe:
		p.not(func() { p.binary(&Binary{Op: OpEq, L: b.L, R: b.R}) })
		return
	}
	op := b.Op
	if s, ok := sparkOps[op]; ok {
		op = s
	}
	p.paren(func() {
		p.expr(b.L)
		p.w(" " + op + " ")
		p.expr(b.R)
	})
}

func (p *prettyPrinter) is(i *Is) {
	if i.Is == IsNull {
		p.paren(func() {
			p.expr(i.X)
			p.w(" IS " + not(i.Not) + "NULL")
		})
		return
	}
	// Spark reads x IS TRUE as x <=> true.
	lit := &Literal{Kind: LitBool, Value: "TRUE"}
	if i.Is == IsFalse {
		lit.Value = "FALSE"
	}
	cmp := func() { p.binary(&Binary{Op: OpNullSafeEq, L: i.X, R: lit}) }
	p.notIf(i.Not, cmp)
}

func (p *prettyPrinter) like(l *Like) {
	f := func() {
		switch l.Op {
		case OpLike:
			p.expr(l.X)
			p.w(" LIKE ")
			p.expr(l.Pattern)
		case OpILike:
			p.call(&Call{Name: "ilike", Args: []Expr{l.X, l.Pattern}})
		default:
			p.call(&Call{Name: "RLIKE", Args: []Expr{l.X, l.Pattern}})
		}
	}
	p.notIf(l.Not, f)
}

func (p *prettyPrinter) caseExpr(c *Case) {
	p.w("CASE")
	for _, wh := range c.Whens {
		p.w(" WHEN ")
		if c.Operand != nil {
			p.binary(&Binary{Op: OpEq, L: c.Operand, R: wh.Cond})
		} else {
			p.expr(wh.Cond)
		}
		p.w(" THEN ")
		p.expr(wh.Then)
	}
	if c.Else != nil {
		p.w(" ELSE ")
		p.expr(c.Else)
	}
	p.w(" END")
}
