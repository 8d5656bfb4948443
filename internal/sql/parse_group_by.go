package sql

import "strings"

// groupBy parses what follows GROUP BY: ALL, or a list of expressions,
// ROLLUP (...), CUBE (...) and GROUPING SETS (...), optionally ended by
// WITH ROLLUP or WITH CUBE (Hive's spelling, which Spark reads too).
func (p *parser) groupBy(s *Select) error {
	if p.acceptKw("ALL") {
		s.GroupByAll = true
		return nil
	}
	for {
		e, err := p.groupingElement()
		if err != nil {
			return err
		}
		s.GroupBy = append(s.GroupBy, e)
		if !p.acceptOp(",") {
			break
		}
	}
	if p.atKw("WITH") && (isKw(p.peek(1), "ROLLUP") || isKw(p.peek(1), "CUBE")) {
		at := p.advance().pos
		kind := strings.ToUpper(p.advance().text)
		g := &GroupingSets{At: at, Kind: kind}
		for _, e := range s.GroupBy {
			if _, ok := e.(*GroupingSets); ok {
				return errAt(at, "WITH %s cannot be combined with ROLLUP, CUBE or GROUPING SETS", kind)
			}
			g.Sets = append(g.Sets, []Expr{e})
		}
		s.GroupBy = []Expr{g}
	}
	return nil
}

func (p *parser) groupingElement() (Expr, error) {
	t := p.tok()
	switch {
	case (isKw(t, "ROLLUP") || isKw(t, "CUBE")) && isOp(p.peek(1), "("):
		p.advance()
		p.advance()
		g := &GroupingSets{At: t.pos, Kind: strings.ToUpper(t.text)}
		for {
			set, err := p.groupingSet(false)
			if err != nil {
				return nil, err
			}
			g.Sets = append(g.Sets, set)
			if !p.acceptOp(",") {
				break
			}
		}
		return g, p.expectOp(")")
	case isKw(t, "GROUPING") && isKw(p.peek(1), "SETS"):
		p.advance()
		p.advance()
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		g := &GroupingSets{At: t.pos, Kind: GroupSets}
		for {
			set, err := p.groupingSet(true)
			if err != nil {
				return nil, err
			}
			g.Sets = append(g.Sets, set)
			if !p.acceptOp(",") {
				break
			}
		}
		return g, p.expectOp(")")
	}
	return p.expr()
}

// groupingSet reads one element of ROLLUP, CUBE or GROUPING SETS: a
// parenthesized list ((a, b), and () where empty is true), else one
// expression. "(a + 1) * 2" starts like a list and is read again as an
// expression when the list is not followed by ',' or ')'.
func (p *parser) groupingSet(empty bool) ([]Expr, error) {
	if p.atOp("(") {
		save := p.i
		open := p.advance()
		if p.acceptOp(")") {
			if !empty {
				return nil, errAt(open.pos, "() is only allowed in GROUPING SETS")
			}
			return nil, nil
		}
		list, err := p.exprList()
		if err == nil && p.acceptOp(")") && (p.atOp(",") || p.atOp(")")) {
			return list, nil
		}
		p.i = save
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	return []Expr{e}, nil
}
