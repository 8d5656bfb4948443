package sql

import "strings"

// specialCall reads a call of position, trim, substring or overlay, which
// Spark also takes in the SQL-standard argument syntax, into an ordinary
// Call:
//
//	position(sub IN s)                        position(sub, s)
//	trim([BOTH|LEADING|TRAILING] [x] FROM s)  trim / ltrim / rtrim(s[, x])
//	substring(s FROM i [FOR n])               substring(s, i[, n])
//	overlay(s PLACING r FROM i [FOR n])       overlay(s, r, i[, n])
//
// The plain comma-separated form reads on from the first argument, never
// re-reading it, so nested calls stay linear. ok is false, with nothing
// consumed, when the call has no argument or starts with * or DISTINCT.
func (p *parser) specialCall() (Expr, bool, error) {
	if a := p.peek(2); isOp(a, ")") || isOp(a, "*") || isKw(a, "DISTINCT") || isKw(a, "ALL") {
		return nil, false, nil
	}
	name := p.advance()
	p.advance() // (
	c := &Call{At: name.pos, Name: name.text}
	var first Expr
	var special bool
	var err error
	switch strings.ToUpper(name.text) {
	case "POSITION":
		first, special, err = p.positionArgs(c)
	case "TRIM":
		first, special, err = p.trimArgs(c)
	case "SUBSTRING", "SUBSTR":
		first, special, err = p.fromForArgs(c, "")
	case "OVERLAY":
		first, special, err = p.fromForArgs(c, "PLACING")
	}
	if err != nil {
		return nil, true, err
	}
	if !special {
		c.Args = []Expr{first}
		for p.acceptOp(",") {
			x, err := p.expr()
			if err != nil {
				return nil, true, err
			}
			c.Args = append(c.Args, x)
		}
	}
	if err := p.expectOp(")"); err != nil {
		if !special && p.tok().kind != tkError {
			return nil, true, p.errExpected("',' or ')'")
		}
		return nil, true, err
	}
	return c, true, p.callSuffix(c)
}

// positionArgs reads sub IN s. The substring stops before IN, which a
// whole expression would take as a predicate.
func (p *parser) positionArgs(c *Call) (Expr, bool, error) {
	sub, err := p.exprPrec(precBitOr)
	if err != nil {
		return nil, false, err
	}
	if !p.acceptKw("IN") {
		first, err := p.exprRest(sub, precOr)
		return first, false, err
	}
	s, err := p.exprPrec(precBitOr)
	if err != nil {
		return nil, true, err
	}
	c.Args = []Expr{sub, s}
	return nil, true, nil
}

// trimArgs reads [BOTH|LEADING|TRAILING] [chars] FROM s.
func (p *parser) trimArgs(c *Call) (Expr, bool, error) {
	side := ""
	for _, w := range []string{"BOTH", "LEADING", "TRAILING"} {
		if p.atKw(w) && !isOp(p.peek(1), ")") && !isOp(p.peek(1), ",") {
			side = w
			p.advance()
			break
		}
	}
	var chars Expr
	if !p.atKw("FROM") {
		x, err := p.exprPrec(precBitOr)
		if err != nil {
			return nil, false, err
		}
		if !p.atKw("FROM") {
			if side != "" {
				return nil, true, p.errExpected("FROM")
			}
			first, err := p.exprRest(x, precOr)
			return first, false, err
		}
		chars = x
	}
	p.advance() // FROM
	s, err := p.exprPrec(precBitOr)
	if err != nil {
		return nil, true, err
	}
	switch side {
	case "LEADING":
		c.Name = "ltrim"
	case "TRAILING":
		c.Name = "rtrim"
	default:
		c.Name = "trim"
	}
	c.Args = []Expr{s}
	if chars != nil {
		c.Args = append(c.Args, chars)
	}
	return nil, true, nil
}

// fromForArgs reads s [PLACING r] FROM i [FOR n]; placing is "" for
// substring. FROM is reserved, so the first expression stops before it.
func (p *parser) fromForArgs(c *Call, placing string) (Expr, bool, error) {
	s, err := p.expr()
	if err != nil {
		return nil, false, err
	}
	if placing != "" && !p.atKw(placing) || placing == "" && !p.atKw("FROM") {
		return s, false, nil
	}
	c.Args = []Expr{s}
	if placing != "" {
		p.advance()
		r, err := p.exprPrec(precBitOr)
		if err != nil {
			return nil, true, err
		}
		c.Args = append(c.Args, r)
	}
	if err := p.expectKw("FROM"); err != nil {
		return nil, true, err
	}
	from, err := p.exprPrec(precBitOr)
	if err != nil {
		return nil, true, err
	}
	c.Args = append(c.Args, from)
	if p.acceptKw("FOR") {
		n, err := p.exprPrec(precBitOr)
		if err != nil {
			return nil, true, err
		}
		c.Args = append(c.Args, n)
	}
	return nil, true, nil
}
