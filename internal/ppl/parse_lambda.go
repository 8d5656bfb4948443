package ppl

import "sluice/internal/sql"

// arrowAt reports whether tokens i and i+1 from here are "-" ">" written
// together: the lexer has no "->" token, since a search term may hold
// one.
func (p *parser) arrowAt(i int) bool {
	a, b := p.peek(i), p.peek(i+1)
	return isOp(a, "-") && isOp(b, ">") && a.end == b.off
}

// lambdaAhead reports how many tokens a lambda's parameter list takes
// here (x -> ..., (x, y) -> ...), 0 when there is none.
func (p *parser) lambdaAhead() int {
	if t := p.tok(); t.kind == tkIdent && p.arrowAt(1) {
		return 1
	}
	if !p.atOp("(") {
		return 0
	}
	for i := 1; ; i += 2 {
		if p.peek(i).kind != tkIdent {
			return 0
		}
		if isOp(p.peek(i+1), ")") {
			if p.arrowAt(i + 2) {
				return i + 2
			}
			return 0
		}
		if !isOp(p.peek(i+1), ",") {
			return 0
		}
	}
}

// callArg reads one argument of a function call, which may be a lambda
// (filter(a, x -> x > 0), reduce(a, 0, (acc, x) -> acc + x)): the SQL
// engine's higher-order functions take it as it is.
func (p *parser) callArg() (sql.Expr, error) {
	if p.atOp("[") {
		return p.fieldList()
	}
	n := p.lambdaAhead()
	if n == 0 {
		return p.expr()
	}
	l := &sql.Lambda{At: p.tok().pos}
	for i := 0; i < n; i++ {
		if t := p.advance(); t.kind == tkIdent {
			l.Params = append(l.Params, t.text)
		}
	}
	p.advance() // -
	p.advance() // >
	body, err := p.expr()
	if err != nil {
		return nil, err
	}
	l.Body = body
	return l, nil
}

// callArgs reads a call's arguments up to its closing parenthesis.
func (p *parser) callArgs() ([]sql.Expr, error) {
	var out []sql.Expr
	if p.acceptOp(")") {
		return out, nil
	}
	for {
		e, err := p.callArg()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if p.acceptOp(")") {
			return out, nil
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
	}
}
