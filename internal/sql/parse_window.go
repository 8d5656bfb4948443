package sql

import "strings"

// clauseAhead reports whether the current word starts a SELECT clause
// that is not a reserved word (QUALIFY, WINDOW name AS), so that it is
// not read as an implicit alias: window and qualify stay usable as names.
func (p *parser) clauseAhead() bool {
	t := p.tok()
	if t.kind != tkIdent || t.quoted {
		return false
	}
	switch strings.ToUpper(t.text) {
	case "QUALIFY":
		return true
	case "SEMI", "ANTI":
		return isKw(p.peek(1), "JOIN")
	case "NATURAL":
		k := p.peek(1)
		return isKw(k, "JOIN") || isKw(k, "INNER") || isKw(k, "LEFT") || isKw(k, "RIGHT") || isKw(k, "FULL")
	case "LATERAL":
		return isKw(p.peek(1), "VIEW")
	case "CLUSTER", "DISTRIBUTE", "SORT":
		return isKw(p.peek(1), "BY")
	case "PIVOT", "TABLESAMPLE":
		return isOp(p.peek(1), "(")
	case "UNPIVOT":
		return isOp(p.peek(1), "(") || isKw(p.peek(1), "INCLUDE") || isKw(p.peek(1), "EXCLUDE")
	case "MINUS":
		return setOpAt(t, p.peek(1)) != ""
	case "WINDOW":
		return isIdentTok(p.peek(1)) && isKw(p.peek(2), "AS")
	}
	return false
}

// windowClauses reads the WINDOW and QUALIFY clauses of a SELECT, in
// either order.
func (p *parser) windowClauses(s *Select) error {
	for {
		switch {
		case s.Qualify == nil && p.atKw("QUALIFY"):
			p.advance()
			e, err := p.expr()
			if err != nil {
				return err
			}
			s.Qualify = e
		case s.Windows == nil && p.atKw("WINDOW") && isIdentTok(p.peek(1)):
			p.advance()
			for {
				name, at, err := p.ident("window name")
				if err != nil {
					return err
				}
				if err := p.expectKw("AS"); err != nil {
					return err
				}
				spec, err := p.windowSpecParens()
				if err != nil {
					return err
				}
				s.Windows = append(s.Windows, &NamedWindow{At: at, Name: name, Spec: spec})
				if !p.acceptOp(",") {
					break
				}
			}
		default:
			return nil
		}
	}
}

// callSuffix reads what may follow a call's ')': IGNORE NULLS or RESPECT
// NULLS, then OVER name or OVER (spec).
func (p *parser) callSuffix(c *Call) error {
	p.nullsTreatment(c)
	if err := p.withinGroup(c); err != nil {
		return err
	}
	if err := p.filterClause(c); err != nil {
		return err
	}
	if !p.atKw("OVER") || !(isOp(p.peek(1), "(") || isIdentTok(p.peek(1))) {
		return nil
	}
	at := p.advance().pos
	if isIdentTok(p.tok()) {
		c.Over = &WindowSpec{At: at, Name: p.advance().text}
		return nil
	}
	spec, err := p.windowSpecParens()
	if err != nil {
		return err
	}
	c.Over = spec
	return nil
}

// nullsTreatment reads IGNORE NULLS or RESPECT NULLS if next.
func (p *parser) nullsTreatment(c *Call) bool {
	if !(p.atKw("IGNORE") || p.atKw("RESPECT")) || !isKw(p.peek(1), "NULLS") {
		return false
	}
	c.IgnoreNulls = isKw(p.advance(), "IGNORE")
	p.advance()
	return true
}

// windowSpecParens reads ( [name] [PARTITION BY ...] [ORDER BY ...] [frame] ).
func (p *parser) windowSpecParens() (*WindowSpec, error) {
	open := p.tok()
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	w := &WindowSpec{At: open.pos}
	if t := p.tok(); isIdentTok(t) && !isKw(t, "PARTITION") && !isKw(t, "ROWS") && !isKw(t, "RANGE") {
		w.Name = p.advance().text
	}
	if p.atKw("PARTITION") {
		p.advance()
		if err := p.expectKw("BY"); err != nil {
			return nil, err
		}
		list, err := p.exprList()
		if err != nil {
			return nil, err
		}
		w.PartitionBy = list
	}
	if p.atKw("ORDER") {
		list, err := p.orderBy()
		if err != nil {
			return nil, err
		}
		w.OrderBy = list
	}
	if p.atKw("ROWS") || p.atKw("RANGE") {
		f, err := p.windowFrame()
		if err != nil {
			return nil, err
		}
		w.Frame = f
	}
	if !p.atOp(")") {
		return nil, p.errExpected("PARTITION BY, ORDER BY, ROWS, RANGE or ')'")
	}
	p.advance()
	return w, nil
}

// windowFrame reads ROWS|RANGE start, or ROWS|RANGE BETWEEN start AND end.
func (p *parser) windowFrame() (*WindowFrame, error) {
	t := p.advance()
	f := &WindowFrame{At: t.pos, Unit: FrameRows}
	if isKw(t, "RANGE") {
		f.Unit = FrameRange
	}
	between := p.acceptKw("BETWEEN")
	at := p.tok().pos
	start, err := p.frameBound()
	if err != nil {
		return nil, err
	}
	f.Start, f.End = start, FrameBound{Kind: CurrentRow}
	if between {
		if err := p.expectKw("AND"); err != nil {
			return nil, err
		}
		at = p.tok().pos
		if f.End, err = p.frameBound(); err != nil {
			return nil, err
		}
	}
	switch {
	case f.Start.Kind == UnboundedFollowing:
		return nil, errAt(f.At, "a window frame cannot start at UNBOUNDED FOLLOWING")
	case f.End.Kind == UnboundedPreceding:
		return nil, errAt(at, "a window frame cannot end at UNBOUNDED PRECEDING")
	case f.End.Kind < f.Start.Kind:
		return nil, errAt(at, "a window frame cannot end (%s) before it starts (%s)", f.End, f.Start)
	}
	return f, nil
}

// frameBound reads UNBOUNDED PRECEDING|FOLLOWING, CURRENT ROW, or
// offset PRECEDING|FOLLOWING.
func (p *parser) frameBound() (FrameBound, error) {
	if p.atKw("UNBOUNDED") {
		p.advance()
		switch {
		case p.acceptKw("PRECEDING"):
			return FrameBound{Kind: UnboundedPreceding}, nil
		case p.acceptKw("FOLLOWING"):
			return FrameBound{Kind: UnboundedFollowing}, nil
		}
		return FrameBound{}, p.errExpected("PRECEDING or FOLLOWING")
	}
	if p.atKw("CURRENT") {
		p.advance()
		return FrameBound{Kind: CurrentRow}, p.expectKw("ROW")
	}
	off, err := p.exprPrec(precAdd)
	if err != nil {
		return FrameBound{}, err
	}
	switch {
	case p.acceptKw("PRECEDING"):
		return FrameBound{Kind: Preceding, Offset: off}, nil
	case p.acceptKw("FOLLOWING"):
		return FrameBound{Kind: Following, Offset: off}, nil
	}
	return FrameBound{}, p.errExpected("PRECEDING or FOLLOWING")
}

// withinGroup reads WITHIN GROUP (ORDER BY x [ASC|DESC] [NULLS ...]) after
// an ordered-set aggregate's ')': x becomes the call's first argument.
func (p *parser) withinGroup(c *Call) error {
	if !p.atKw("WITHIN") || !isKw(p.peek(1), "GROUP") {
		return nil
	}
	p.advance()
	p.advance()
	if err := p.expectOp("("); err != nil {
		return err
	}
	if !p.atKw("ORDER") {
		return p.errExpected("ORDER BY in WITHIN GROUP")
	}
	items, err := p.orderBy()
	if err != nil {
		return err
	}
	if len(items) != 1 {
		return errAt(items[1].At, "WITHIN GROUP takes exactly one ORDER BY expression")
	}
	if c.Star || c.Distinct {
		return errAt(c.At, "WITHIN GROUP cannot follow * or DISTINCT")
	}
	c.Args = append([]Expr{items[0].Expr}, c.Args...)
	c.WithinGroup, c.WithinDesc = true, items[0].Desc
	return p.expectOp(")")
}
