package ppl

import (
	"strings"

	"sluice/internal/sql"
	"sluice/internal/types"
)

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return syntaxErr(p.tok().pos, "expression nested too deeply")
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// expr reads an expression: OR, XOR, AND, NOT, comparisons, arithmetic,
// function calls, literals and field names, as PPL writes them.
func (p *parser) expr() (sql.Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	return p.or()
}

func (p *parser) or() (sql.Expr, error) {
	l, err := p.xor()
	if err != nil {
		return nil, err
	}
	for p.atKw("or") {
		at := p.advance().pos
		r, err := p.xor()
		if err != nil {
			return nil, err
		}
		l = &sql.Binary{At: at, Op: sql.OpOr, L: l, R: r}
	}
	return l, nil
}

// xor is a XOR b: (a OR b) AND NOT (a AND b).
func (p *parser) xor() (sql.Expr, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.atKw("xor") {
		at := p.advance().pos
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = &sql.Binary{At: at, Op: sql.OpAnd,
			L: &sql.Binary{At: at, Op: sql.OpOr, L: l, R: r},
			R: &sql.Unary{At: at, Op: sql.OpNot, X: &sql.Binary{At: at, Op: sql.OpAnd, L: l, R: r}}}
	}
	return l, nil
}

func (p *parser) and() (sql.Expr, error) {
	l, err := p.not()
	if err != nil {
		return nil, err
	}
	for p.atKw("and") || p.atOp("&&") {
		at := p.advance().pos
		r, err := p.not()
		if err != nil {
			return nil, err
		}
		l = &sql.Binary{At: at, Op: sql.OpAnd, L: l, R: r}
	}
	return l, nil
}

func (p *parser) not() (sql.Expr, error) {
	if p.atKw("not") {
		at := p.advance().pos
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &sql.Unary{At: at, Op: sql.OpNot, X: x}, nil
	}
	return p.comparison()
}

var cmpOps = map[string]string{"=": sql.OpEq, "==": sql.OpEq, "!=": sql.OpNe, "<>": sql.OpNe,
	"<": sql.OpLt, "<=": sql.OpLe, ">": sql.OpGt, ">=": sql.OpGe}

func (p *parser) comparison() (sql.Expr, error) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	t := p.tok()
	if t.kind == tkOp {
		if op, ok := cmpOps[t.text]; ok {
			p.advance()
			r, err := p.additive()
			if err != nil {
				return nil, err
			}
			return coerceCompare(&sql.Binary{At: t.pos, Op: op, L: l, R: r}), nil
		}
	}
	not := false
	if p.atKw("not") && (isKw(p.peek(1), "in") || isKw(p.peek(1), "like") || isKw(p.peek(1), "between")) {
		p.advance()
		not = true
	}
	switch {
	case p.atKw("in"):
		at := p.advance().pos
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		list, err := p.exprList(")")
		if err != nil {
			return nil, err
		}
		return &sql.InList{At: at, X: l, Not: not, List: list}, nil
	case p.atKw("like"):
		at := p.advance().pos
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &sql.Like{At: at, Op: sql.OpLike, X: l, Not: not, Pattern: r}, nil
	case p.atKw("between"):
		at := p.advance().pos
		lo, err := p.additive()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("and"); err != nil {
			return nil, err
		}
		hi, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &sql.Between{At: at, X: l, Not: not, Lo: lo, Hi: hi}, nil
	case p.atKw("contains") && p.peek(1).kind == tkString:
		// f contains 'text': ilike '%text%', the text taken literally.
		at := p.advance().pos
		lit := p.advance().text
		esc := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(lit)
		return &sql.Like{At: at, Op: sql.OpILike, X: l, Not: not,
			Pattern: &sql.Literal{At: at, Kind: sql.LitString, Value: "%" + esc + "%"}}, nil
	case p.atKw("is"):
		at := p.advance().pos
		n := p.acceptKw("not")
		if err := p.expectKw("null"); err != nil {
			return nil, err
		}
		return &sql.Is{At: at, X: l, Not: n, Is: sql.IsNull}, nil
	}
	return l, nil
}

func (p *parser) additive() (sql.Expr, error) {
	l, err := p.multiplicative()
	if err != nil {
		return nil, err
	}
	for p.atOp("+") || p.atOp("-") {
		t := p.advance()
		r, err := p.multiplicative()
		if err != nil {
			return nil, err
		}
		l = coerceArith(&sql.Binary{At: t.pos, Op: t.text, L: l, R: r})
	}
	return l, nil
}

func (p *parser) multiplicative() (sql.Expr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.atOp("*") || p.atOp("/") || p.atOp("%") {
		t := p.advance()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = coerceArith(&sql.Binary{At: t.pos, Op: t.text, L: l, R: r})
	}
	return l, nil
}

func (p *parser) unary() (sql.Expr, error) {
	if p.atOp("-") || p.atOp("+") {
		t := p.advance()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if t.text == "+" {
			return x, nil
		}
		return &sql.Unary{At: t.pos, Op: sql.OpNeg, X: x}, nil
	}
	return p.primary()
}

func (p *parser) exprList(end string) ([]sql.Expr, error) {
	var out []sql.Expr
	if p.acceptOp(end) {
		return out, nil
	}
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if p.acceptOp(end) {
			return out, nil
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
	}
}

func numberLiteral(t token) *sql.Literal {
	kind := sql.LitInteger
	switch {
	case strings.ContainsAny(t.text, "eE"):
		kind = sql.LitFloat
	case strings.Contains(t.text, "."):
		kind = sql.LitDecimal
	}
	return &sql.Literal{At: t.pos, Kind: kind, Value: t.text}
}

// primary is a literal, (expr), a function call, CASE, CAST, INTERVAL or
// a field name.
func (p *parser) primary() (sql.Expr, error) {
	t := p.tok()
	switch t.kind {
	case tkNumber:
		p.advance()
		return numberLiteral(t), nil
	case tkString:
		p.advance()
		return &sql.Literal{At: t.pos, Kind: sql.LitString, Value: t.text}, nil
	case tkOp:
		if t.text == "(" {
			p.advance()
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			return e, p.expectOp(")")
		}
	case tkIdent:
		if !t.quoted {
			switch strings.ToLower(t.text) {
			case "true", "false":
				p.advance()
				return &sql.Literal{At: t.pos, Kind: sql.LitBool, Value: strings.ToUpper(t.text)}, nil
			case "null":
				p.advance()
				return &sql.Literal{At: t.pos, Kind: sql.LitNull, Value: "NULL"}, nil
			case "interval":
				return p.interval()
			}
			if isOp(p.peek(1), "(") {
				return p.call()
			}
		}
		n, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		return &sql.ColumnRef{At: n.At, Parts: strings.Split(n.Name, ".")}, nil
	}
	return nil, p.errExpected("an expression")
}

// interval reads INTERVAL n unit.
func (p *parser) interval() (sql.Expr, error) {
	at := p.advance().pos
	n := p.tok()
	if n.kind != tkNumber && n.kind != tkString {
		return nil, p.errExpected("a number")
	}
	p.advance()
	text := n.text
	if u := p.tok(); u.kind == tkIdent && n.kind == tkNumber {
		p.advance()
		text += " " + u.text
	}
	iv, err := types.ParseInterval(text)
	if err != nil {
		return nil, syntaxErr(at, "INTERVAL %s: %v", text, err)
	}
	return &sql.Literal{At: at, Kind: sql.LitInterval, Value: text, Interval: iv}, nil
}

// call reads name(args), with PPL's special forms: count() is count(*),
// case(c, v, ... else d), cast(x as type), distinct_count(x).
func (p *parser) call() (sql.Expr, error) {
	t := p.advance()
	p.advance() // (
	name := strings.ToLower(t.text)
	switch name {
	case "cast":
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("as"); err != nil {
			return nil, err
		}
		tt := p.tok()
		if tt.kind != tkIdent {
			return nil, p.errExpected("a type name")
		}
		p.advance()
		if strings.EqualFold(tt.text, "time") {
			// No TIME type: PPL's times are HH:mm:ss strings (ppl_time).
			return &sql.Call{At: t.pos, Name: "ppl_time", Args: []sql.Expr{x}}, p.expectOp(")")
		}
		typ, err := sql.ParseType(castType(tt.text))
		if err != nil {
			return nil, syntaxErr(tt.pos, "unknown type %q", tt.text)
		}
		return &sql.Cast{At: t.pos, X: x, Type: typ}, p.expectOp(")")
	case "extract":
		// extract(YEAR_MONTH FROM ts), MySQL's units (ppl_extract).
		if u := p.tok(); u.kind == tkIdent && isKw(p.peek(1), "from") {
			p.advance()
			p.advance()
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			return &sql.Call{At: t.pos, Name: "ppl_extract", Args: []sql.Expr{
				&sql.Literal{At: u.pos, Kind: sql.LitString, Value: strings.ToUpper(u.text)}, x}}, p.expectOp(")")
		}
	case "position":
		// position(sub IN s) is locate(sub, s).
		sub, err := p.additive()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("in"); err != nil {
			return nil, err
		}
		s, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &sql.Call{At: t.pos, Name: "instr", Args: []sql.Expr{s, sub}}, p.expectOp(")")
	case "case":
		c := &sql.Case{At: t.pos}
		for {
			cond, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			c.Whens = append(c.Whens, &sql.When{At: cond.Pos(), Cond: cond, Then: v})
			if p.acceptKw("else") {
				if c.Else, err = p.expr(); err != nil {
					return nil, err
				}
				return c, p.expectOp(")")
			}
			if p.acceptOp(")") {
				return c, nil
			}
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
	}
	call := &sql.Call{At: t.pos, Name: t.text}
	if (name == "count" || name == "c") && p.acceptOp(")") {
		call.Name, call.Star = "count", true
		return call, nil
	}
	if p.acceptKw("distinct") {
		call.Distinct = true
	}
	args, err := p.callArgs()
	if err != nil {
		return nil, err
	}
	call.Args = args
	return mapCall(call)
}

// castType maps PPL's type names onto SQL ones.
func castType(name string) string {
	switch strings.ToUpper(name) {
	case "INTEGER":
		return "INT"
	case "LONG":
		return "BIGINT"
	case "TEXT":
		return "STRING"
	case "FLOAT":
		return "FLOAT"
	}
	return name
}

// isLit reports whether e is a literal of kind k (a number for
// LitInteger: integer, decimal or float).
func isLit(e sql.Expr, k sql.LitKind) bool {
	l, ok := e.(*sql.Literal)
	if !ok {
		return false
	}
	if k == sql.LitInteger {
		return l.Kind == sql.LitInteger || l.Kind == sql.LitDecimal || l.Kind == sql.LitFloat
	}
	return l.Kind == k
}

// coerceArith is PPL's arithmetic where an operand is a string literal:
// the string read as a number, or two strings joined by + (ppl_plus, ...
// in the registry); elsewhere the SQL operator stays, so plans keep it.
func coerceArith(b *sql.Binary) sql.Expr {
	// A + over a string-literal + ('[' + s + '] ' + body) is one too, so
	// the text keeps joining.
	plus := func(e sql.Expr) bool {
		c, ok := e.(*sql.Call)
		return ok && c.Name == "ppl_plus" && b.Op == "+"
	}
	if !isLit(b.L, sql.LitString) && !isLit(b.R, sql.LitString) && !plus(b.L) && !plus(b.R) {
		return b
	}
	fn := map[string]string{"+": "ppl_plus", "-": "ppl_minus", "*": "ppl_times", "/": "ppl_divide", "%": "ppl_mod"}[b.Op]
	return &sql.Call{At: b.At, Name: fn, Args: []sql.Expr{b.L, b.R}}
}

// coerceCompare is a string literal compared with a number literal
// ("1000" > 999.9): both read as numbers (ppl_compare), where SQL would
// cast the string to the number's type.
func coerceCompare(b *sql.Binary) sql.Expr {
	if !(isLit(b.L, sql.LitString) && isLit(b.R, sql.LitInteger) || isLit(b.R, sql.LitString) && isLit(b.L, sql.LitInteger)) {
		return b
	}
	return &sql.Call{At: b.At, Name: "ppl_compare", Args: []sql.Expr{
		&sql.Literal{At: b.At, Kind: sql.LitString, Value: b.Op}, b.L, b.R}}
}
