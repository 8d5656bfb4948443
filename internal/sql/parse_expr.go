package sql

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

func (p *parser) expr() (Expr, error) { return p.exprPrec(precOr) }

// binaryOps maps operator tokens (and keywords) to the canonical operator.
var binaryOps = map[string]string{
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "%": OpMod, "||": OpConcat,
	"=": OpEq, "==": OpEq, "<>": OpNe, "!=": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe,
	"<=>": OpNullSafeEq,
	"&":   OpBitAnd, "|": OpBitOr, "^": OpBitXor, "<<": OpShiftLeft, ">>": OpShiftRight, ">>>": OpShiftRU,
}

// likeOps maps the pattern keywords to their operator.
var likeOps = map[string]string{"LIKE": OpLike, "ILIKE": OpILike, "RLIKE": OpRLike, "REGEXP": OpRLike}

// exprPrec parses an expression whose operators all bind at least as
// tightly as min.
func (p *parser) exprPrec(min int) (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	return p.exprRest(left, min)
}

// exprRest continues an expression whose first operand, left, is read:
// the binary operators and predicates binding at least as tightly as min.
func (p *parser) exprRest(left Expr, min int) (Expr, error) {
	var err error
	for {
		t := p.tok()
		switch {
		case t.kind == tkOp && binaryOps[t.text] != "":
			op := binaryOps[t.text]
			prec := binaryPrec(op)
			if prec < min {
				return left, nil
			}
			p.advance()
			if q, all, ok, err := p.quantified(op); err != nil {
				return nil, err
			} else if ok {
				left = &QuantifiedSubquery{At: t.pos, X: left, Op: op, All: all, Query: q}
				continue
			}
			right, err := p.exprPrec(prec + 1)
			if err != nil {
				return nil, err
			}
			left = &Binary{At: t.pos, Op: op, L: left, R: right}
		case isKw(t, "AND") || isKw(t, "OR") || isKw(t, "DIV") && startsOperand(p.peek(1)):
			op := strings.ToUpper(t.text)
			prec := binaryPrec(op)
			if prec < min {
				return left, nil
			}
			p.advance()
			right, err := p.exprPrec(prec + 1)
			if err != nil {
				return nil, err
			}
			left = &Binary{At: t.pos, Op: op, L: left, R: right}
		case isKw(t, "IS") || isPredicateKw(t) || isKw(t, "NOT") && isPredicateKw(p.peek(1)):
			if precCmp < min {
				return left, nil
			}
			left, err = p.predicate(left)
			if err != nil {
				return nil, err
			}
		default:
			return left, nil
		}
	}
}

// quantified parses ANY (query), SOME (query) or ALL (query) after the
// comparison op; ok is false (nothing consumed) when none follows.
func (p *parser) quantified(op string) (q *Query, all, ok bool, err error) {
	t := p.tok()
	if !(isKw(t, "ANY") || isKw(t, "SOME") || isKw(t, "ALL")) || !isOp(p.peek(1), "(") || !p.queryAt(2) {
		return nil, false, false, nil
	}
	switch op {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
	default:
		return nil, false, false, nil
	}
	all = isKw(t, "ALL")
	p.advance()
	p.advance()
	if q, err = p.query(); err != nil {
		return nil, false, false, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, false, false, err
	}
	return q, all, true, nil
}

func isPredicateKw(t token) bool {
	return isKw(t, "IN") || isKw(t, "BETWEEN") || t.kind == tkIdent && !t.quoted && likeOps[strings.ToUpper(t.text)] != ""
}

// predicate parses the IS / IN / BETWEEN / LIKE that follows x.
func (p *parser) predicate(x Expr) (Expr, error) {
	at := p.tok().pos
	if p.acceptKw("IS") {
		not := p.acceptKw("NOT")
		if p.acceptKw("DISTINCT") {
			// IS [NOT] DISTINCT FROM is the null-safe (in)equality <=>.
			if err := p.expectKw("FROM"); err != nil {
				return nil, err
			}
			r, err := p.exprPrec(precCmp + 1)
			if err != nil {
				return nil, err
			}
			var e Expr = &Binary{At: at, Op: OpNullSafeEq, L: x, R: r}
			if !not {
				e = &Unary{At: at, Op: OpNot, X: e}
			}
			return e, nil
		}
		var k IsKind
		switch {
		case p.acceptKw("NULL"):
			k = IsNull
		case p.acceptKw("TRUE"):
			k = IsTrue
		case p.acceptKw("FALSE"):
			k = IsFalse
		default:
			return nil, p.errExpected("NULL, TRUE or FALSE")
		}
		return &Is{At: at, X: x, Not: not, Is: k}, nil
	}
	not := p.acceptKw("NOT")
	switch {
	case p.acceptKw("IN"):
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		if p.queryAt(0) {
			q, err := p.query()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return &InSubquery{At: at, X: x, Not: not, Query: q}, nil
		}
		list, err := p.exprList()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		return &InList{At: at, X: x, Not: not, List: list}, nil
	case p.acceptKw("BETWEEN"):
		lo, err := p.exprPrec(precBitOr)
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("AND"); err != nil {
			return nil, err
		}
		hi, err := p.exprPrec(precBitOr)
		if err != nil {
			return nil, err
		}
		return &Between{At: at, X: x, Not: not, Lo: lo, Hi: hi}, nil
	}
	op := likeOps[strings.ToUpper(p.tok().text)]
	p.advance()
	if q := p.tok(); op != OpRLike && q.kind == tkIdent && !q.quoted && p.peek(1).text == "(" {
		if join := quantifiedLike[strings.ToUpper(q.text)]; join != "" {
			p.advance()
			return p.quantifiedLike(at, op, x, not, join)
		}
	}
	pat, err := p.exprPrec(precBitOr)
	if err != nil {
		return nil, err
	}
	l := &Like{At: at, Op: op, X: x, Not: not, Pattern: pat}
	if p.atKw("ESCAPE") {
		if op == OpRLike {
			return nil, errAt(p.tok().pos, "ESCAPE is not allowed with RLIKE")
		}
		p.advance()
		if l.Escape, err = p.exprPrec(precBitOr); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// quantifiedLike maps LIKE's ANY / SOME / ALL to how the per-pattern
// tests join.
var quantifiedLike = map[string]string{"ANY": OpOr, "SOME": OpOr, "ALL": OpAnd}

// quantifiedLike reads the pattern list of x [NOT] LIKE ANY|SOME|ALL
// (p, ...), Spark's form, as the OR (ANY, SOME) or AND (ALL) of one
// [NOT] LIKE per pattern: three-valued logic then gives Spark's NULLs
// (a match wins over a NULL pattern for ANY; for ALL a miss does).
func (p *parser) quantifiedLike(at Pos, op string, x Expr, not bool, join string) (Expr, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	pats, err := p.exprList()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	var e Expr
	for _, pat := range pats {
		var l Expr = &Like{At: at, Op: op, X: x, Not: not, Pattern: pat}
		if e == nil {
			e = l
		} else {
			e = &Binary{At: at, Op: join, L: e, R: l}
		}
	}
	return e, nil
}

// exprList reads one or more comma-separated expressions.
func (p *parser) exprList() ([]Expr, error) {
	var out []Expr
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

// unary parses prefix operators, then a primary with its postfix
// operators. A NOT operand extends as far as NOT binds even after a
// tighter operator ("a = NOT b AND c" is "(a = (NOT b)) AND c").
func (p *parser) unary() (Expr, error) {
	t := p.tok()
	switch {
	case isKw(t, "NOT") || isOp(t, "!"):
		// ! is Spark's other spelling of NOT, at the same precedence.
		p.advance()
		x, err := p.exprPrec(precNot)
		if err != nil {
			return nil, err
		}
		return &Unary{At: t.pos, Op: OpNot, X: x}, nil
	case isOp(t, "-") || isOp(t, "+") || isOp(t, "~"):
		p.advance()
		x, err := p.exprPrec(precUnary)
		if err != nil {
			return nil, err
		}
		return &Unary{At: t.pos, Op: t.text, X: x}, nil
	}
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	return p.postfix(x)
}

// postfix applies x[i], x.field and x::type.
func (p *parser) postfix(x Expr) (Expr, error) {
	for {
		t := p.tok()
		switch {
		case isOp(t, "["):
			p.advance()
			idx, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			x = &Subscript{At: t.pos, X: x, Index: idx}
		case isOp(t, "."):
			p.advance()
			name, err := p.anyWord("field name")
			if err != nil {
				return nil, err
			}
			x = &FieldAccess{At: t.pos, X: x, Name: name}
		case isOp(t, "::"):
			p.advance()
			typ, err := p.dataType()
			if err != nil {
				return nil, err
			}
			x = &Cast{At: t.pos, X: x, Type: typ}
		case isKw(t, "COLLATE") && (isIdentTok(p.peek(1)) || p.peek(1).kind == tkString):
			p.advance()
			x = &Collate{At: t.pos, X: x, Name: p.advance().text}
		default:
			return x, nil
		}
	}
}

// callKeywords are reserved words that still name functions when a '('
// follows: left(s, 3), right(s, 3), rlike(s, re), like(s, p).
var callKeywords = map[string]bool{
	"LEFT": true, "RIGHT": true, "LIKE": true, "ILIKE": true, "RLIKE": true, "REGEXP": true,
	"EXISTS": true,
}

func (p *parser) primary() (Expr, error) {
	t := p.tok()
	switch t.kind {
	case tkNumber:
		p.advance()
		return p.numberSuffix(t, &Literal{At: t.pos, Kind: t.num, Value: t.text})
	case tkString:
		p.advance()
		// Spark joins adjacent string literals: 'a' 'b' is 'ab'.
		v := t.text
		for p.tok().kind == tkString {
			v += p.tok().text
			p.advance()
		}
		return &Literal{At: t.pos, Kind: LitString, Value: v}, nil
	case tkBinary:
		p.advance()
		return &Literal{At: t.pos, Kind: LitBinary, Value: t.text}, nil
	case tkOp:
		if t.text == "(" {
			return p.parenExpr()
		}
		return nil, p.errExpected("expression")
	case tkIdent:
		// handled below
	default:
		return nil, p.errExpected("expression")
	}
	next := p.peek(1)
	if !t.quoted {
		switch strings.ToUpper(t.text) {
		case "NULL":
			p.advance()
			return &Literal{At: t.pos, Kind: LitNull, Value: "NULL"}, nil
		case "TRUE", "FALSE":
			p.advance()
			return &Literal{At: t.pos, Kind: LitBool, Value: strings.ToUpper(t.text)}, nil
		case "POSITION", "TRIM", "SUBSTRING", "SUBSTR", "OVERLAY":
			if isOp(next, "(") {
				if e, ok, err := p.specialCall(); ok || err != nil {
					return e, err
				}
			}
		case "DATE", "TIMESTAMP":
			if next.kind == tkString {
				return p.typedLiteral()
			}
		case "INTERVAL":
			if next.kind == tkString || next.kind == tkNumber {
				return p.intervalLiteral()
			}
		case "CASE":
			return p.caseExpr()
		case "CAST", "TRY_CAST":
			if isOp(next, "(") {
				return p.castExpr()
			}
		case "EXTRACT":
			if isOp(next, "(") {
				return p.extractExpr()
			}
		case "EXISTS":
			// exists(arr, x -> ...) is Spark's higher-order function.
			if !isOp(next, "(") || p.queryAt(2) {
				return p.existsExpr()
			}
		}
	}
	if isOp(next, "(") && (isIdentTok(t) || !t.quoted && callKeywords[strings.ToUpper(t.text)]) {
		return p.call()
	}
	if !isIdentTok(t) && !p.isLambdaParam(t) {
		return nil, p.errExpected("expression")
	}
	p.advance()
	ref := &ColumnRef{At: t.pos, Parts: []string{t.text}}
	for isOp(p.tok(), ".") && p.peek(1).kind == tkIdent {
		p.advance()
		ref.Parts = append(ref.Parts, p.advance().text)
	}
	return ref, nil
}

func (p *parser) parenExpr() (Expr, error) {
	open := p.advance()
	if p.queryAt(0) {
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		return &Subquery{At: open.pos, Query: q}, nil
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.atOp(",") {
		// (a, b) is a row value: Spark builds a struct of its fields,
		// named col1, col2, ... so that rows compare position by position.
		row := &Call{At: open.pos, Name: "struct", Args: []Expr{e}}
		for p.acceptOp(",") {
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			row.Args = append(row.Args, x)
		}
		return row, p.expectOp(")")
	}
	if !p.atOp(")") {
		return nil, p.errExpected("')'")
	}
	p.advance()
	return e, nil
}

// startsOperand reports whether t can begin the right operand of a
// keyword operator (DIV), so that a column or alias named div still
// reads as a name when nothing follows it.
func startsOperand(t token) bool {
	switch t.kind {
	case tkNumber, tkString, tkBinary:
		return true
	case tkOp:
		return t.text == "(" || t.text == "-" || t.text == "+" || t.text == "~" || t.text == "!"
	case tkIdent:
		return isIdentTok(t) || isKw(t, "NULL") || isKw(t, "TRUE") || isKw(t, "FALSE") || isKw(t, "CASE") || isKw(t, "CAST") || isKw(t, "NOT")
	}
	return false
}

func (p *parser) typedLiteral() (Expr, error) {
	kw := p.advance()
	s := p.advance()
	if strings.EqualFold(kw.text, "DATE") {
		if _, ok := types.ParseDate(s.text); !ok {
			return nil, errAt(s.pos, "invalid DATE literal %s (want YYYY-MM-DD)", QuoteString(s.text))
		}
		return &Literal{At: kw.pos, Kind: LitDate, Value: s.text}, nil
	}
	if _, ok := types.ParseTimestamp(s.text); !ok {
		return nil, errAt(s.pos, "invalid TIMESTAMP literal %s (want YYYY-MM-DD HH:MM:SS)", QuoteString(s.text))
	}
	return &Literal{At: kw.pos, Kind: LitTimestamp, Value: s.text}, nil
}

// intervalUnits are the unit words that may follow a quoted interval
// value (INTERVAL '5' MINUTE). After a bare number any word is taken as
// the unit and validated, since a unit is required there.
var intervalUnits = func() map[string]bool {
	m := map[string]bool{}
	for _, u := range []string{"YEAR", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"} {
		m[u] = true
		m[u+"S"] = true
	}
	return m
}()

// intervalLiteral reads INTERVAL '5 minutes', INTERVAL '5' MINUTE,
// INTERVAL 5 MINUTES and INTERVAL 1 HOUR 30 MINUTES.
func (p *parser) intervalLiteral() (Expr, error) {
	kw := p.advance()
	var parts []string
	if s := p.tok(); s.kind == tkString {
		p.advance()
		parts = append(parts, s.text)
		if u := p.tok(); u.kind == tkIdent && !u.quoted && intervalUnits[strings.ToUpper(u.text)] {
			p.advance()
			parts = append(parts, u.text)
		}
	}
	for len(parts) == 0 || p.tok().kind == tkNumber && p.peek(1).kind == tkIdent && !p.peek(1).quoted {
		n := p.advance()
		u := p.tok()
		if u.kind != tkIdent || u.quoted {
			return nil, p.errExpected("interval unit (such as MINUTES)")
		}
		if err := types.AddIntervalUnit(&arrow.MonthDayNanoInterval{}, 1, u.text); err != nil {
			return nil, errAt(u.pos, "unknown interval unit %s", quoteFound(u.text))
		}
		p.advance()
		parts = append(parts, n.text, u.text)
	}
	text := strings.Join(parts, " ")
	iv, err := types.ParseInterval(text)
	if err != nil || strings.ContainsRune(text, '\'') {
		return nil, errAt(kw.pos, "invalid INTERVAL %s (want a number and a unit, such as '5 minutes')", QuoteString(text))
	}
	return &Literal{At: kw.pos, Kind: LitInterval, Value: text, Interval: iv}, nil
}

func (p *parser) caseExpr() (Expr, error) {
	kw := p.advance()
	c := &Case{At: kw.pos}
	if p.atKw("END") || p.atKw("ELSE") {
		return nil, p.errExpected("WHEN")
	}
	if !p.atKw("WHEN") {
		op, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.Operand = op
	}
	for p.atKw("WHEN") {
		w := &When{At: p.advance().pos}
		var err error
		if w.Cond, err = p.expr(); err != nil {
			return nil, err
		}
		if err := p.expectKw("THEN"); err != nil {
			return nil, err
		}
		if w.Then, err = p.expr(); err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		return nil, p.errExpected("WHEN")
	}
	if p.acceptKw("ELSE") {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.Else = e
	}
	if err := p.expectKw("END"); err != nil {
		if len(c.Whens) > 0 && !p.atKw("ELSE") {
			return nil, p.errExpected("WHEN, ELSE or END")
		}
		return nil, err
	}
	return c, nil
}

func (p *parser) castExpr() (Expr, error) {
	kw := p.advance()
	p.advance() // (
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expectKw("AS"); err != nil {
		return nil, err
	}
	typ, err := p.dataType()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	return &Cast{At: kw.pos, X: x, Type: typ, Try: strings.EqualFold(kw.text, "TRY_CAST")}, nil
}

func (p *parser) extractExpr() (Expr, error) {
	kw := p.advance()
	p.advance() // (
	f := p.tok()
	if f.kind != tkIdent || f.quoted {
		return nil, p.errExpected("a date part such as YEAR")
	}
	p.advance()
	if err := p.expectKw("FROM"); err != nil {
		return nil, err
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	return &Extract{At: kw.pos, Field: strings.ToUpper(f.text), X: x}, nil
}

func (p *parser) call() (Expr, error) {
	name := p.advance()
	p.advance() // (
	c := &Call{At: name.pos, Name: name.text}
	if p.acceptOp("*") {
		c.Star = true
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		return c, p.callSuffix(c)
	}
	if p.acceptOp(")") {
		return c, p.callSuffix(c)
	}
	if p.acceptKw("DISTINCT") {
		c.Distinct = true
	} else {
		p.acceptKw("ALL")
	}
	args, err := p.callArgs()
	if err != nil {
		return nil, err
	}
	c.Args = args
	p.nullsTreatment(c) // first_value(x IGNORE NULLS), as Spark also reads it
	if err := p.expectOp(")"); err != nil {
		if p.tok().kind != tkError {
			return nil, p.errExpected("',' or ')'")
		}
		return nil, err
	}
	if err := resolveNamedArgs(c); err != nil {
		return nil, err
	}
	if lit, ok := args[len(args)-1].(*Literal); ok && len(args) == 2 && lit.Kind == LitString && strings.EqualFold(c.Name, "collate") && !name.quoted {
		// collate(s, 'UTF8_LCASE') is Spark's function form of s COLLATE UTF8_LCASE.
		return &Collate{At: c.At, X: args[0], Name: lit.Value}, nil
	}
	return c, p.callSuffix(c)
}

// existsExpr reads EXISTS (query).
func (p *parser) existsExpr() (Expr, error) {
	kw := p.advance()
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	if !p.queryAt(0) {
		return nil, p.errExpected("a query after EXISTS (")
	}
	q, err := p.query()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	return &Exists{At: kw.pos, Query: q}, nil
}

// filterClause reads FILTER (WHERE cond) after an aggregate call's ')'.
func (p *parser) filterClause(c *Call) error {
	if !p.atKw("FILTER") || !isOp(p.peek(1), "(") || !isKw(p.peek(2), "WHERE") {
		return nil
	}
	p.advance()
	p.advance()
	p.advance()
	f, err := p.expr()
	if err != nil {
		return err
	}
	c.Filter = f
	return p.expectOp(")")
}

// callArgs reads a call's comma-separated arguments, where any argument
// may be a lambda.
func (p *parser) callArgs() ([]Expr, error) {
	var out []Expr
	for {
		var e Expr
		var err error
		if n := p.lambdaAhead(); n > 0 {
			e, err = p.lambda(n)
		} else if p.namedArgAhead() {
			e, err = p.namedArgument()
		} else {
			e, err = p.expr()
		}
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

// lambdaAhead reports how many tokens the parameter list of a lambda
// starting here takes (x -> is 1, (a, b) -> is 5), or 0 if none starts.
func (p *parser) lambdaAhead() int {
	if isParamTok(p.tok()) && isOp(p.peek(1), "->") {
		return 1
	}
	if !p.atOp("(") {
		return 0
	}
	for i := 1; ; i += 2 {
		if !isParamTok(p.peek(i)) {
			return 0
		}
		switch {
		case isOp(p.peek(i+1), ","):
		case isOp(p.peek(i+1), ")") && isOp(p.peek(i+2), "->"):
			return i + 2
		default:
			return 0
		}
	}
}

// lambda reads a lambda whose parameter list takes n tokens.
func (p *parser) lambda(n int) (Expr, error) {
	l := &Lambda{At: p.tok().pos}
	for i := 0; i < n; i++ {
		if t := p.advance(); isParamTok(t) {
			for _, q := range l.Params {
				if strings.EqualFold(q, t.text) {
					return nil, errAt(t.pos, "lambda parameter %s is repeated", t.text)
				}
			}
			l.Params = append(l.Params, t.text)
		}
	}
	p.advance() // ->
	outer := p.lambdaParams
	p.lambdaParams = append(append([]string{}, outer...), l.Params...)
	body, err := p.expr()
	p.lambdaParams = outer
	if err != nil {
		return nil, err
	}
	l.Body = body
	return l, nil
}

// isLambdaParam reports whether t names a parameter of a lambda being
// parsed.
func (p *parser) isLambdaParam(t token) bool {
	if t.kind != tkIdent {
		return false
	}
	for _, n := range p.lambdaParams {
		if strings.EqualFold(n, t.text) {
			return true
		}
	}
	return false
}

// isParamTok is a word that can name a lambda parameter: any word,
// reserved or not, since the -> after the list makes it unambiguous.
func isParamTok(t token) bool {
	return t.kind == tkIdent && (t.quoted || !literalWords[strings.ToUpper(t.text)])
}

// literalWords are the words a lambda parameter cannot be.
var literalWords = map[string]bool{"NULL": true, "TRUE": true, "FALSE": true}
