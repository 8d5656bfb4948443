package sql

// pivots reads the PIVOT and UNPIVOT clauses after a FROM clause, each
// applying to all that comes before it, as Spark reads them.
func (p *parser) pivots(from TableExpr) (TableExpr, error) {
	for {
		var err error
		switch {
		case p.atKw("PIVOT") && isOp(p.peek(1), "("):
			from, err = p.pivot(from)
		case p.atKw("UNPIVOT") && (isOp(p.peek(1), "(") || isKw(p.peek(1), "INCLUDE") || isKw(p.peek(1), "EXCLUDE")):
			from, err = p.unpivot(from)
		default:
			return from, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// pivot reads PIVOT (agg [AS a], ... FOR col | (c1, ...) IN (v [AS x], ...)).
func (p *parser) pivot(from TableExpr) (TableExpr, error) {
	pv := &Pivot{At: p.advance().pos, From: from}
	p.advance()
	for {
		at := p.tok().pos
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		it := &SelectItem{At: at, Expr: e}
		if p.acceptKw("AS") {
			if it.Alias, _, err = p.ident("alias"); err != nil {
				return nil, err
			}
		} else if isIdentTok(p.tok()) && !p.atKw("FOR") {
			it.Alias = p.advance().text
		}
		pv.Aggs = append(pv.Aggs, it)
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectKw("FOR"); err != nil {
		return nil, err
	}
	if p.atOp("(") {
		cols, err := p.identList("pivot column")
		if err != nil {
			return nil, err
		}
		pv.Columns = cols
	} else {
		col, _, err := p.ident("pivot column")
		if err != nil {
			return nil, err
		}
		pv.Columns = []string{col}
	}
	if err := p.expectKw("IN"); err != nil {
		return nil, err
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	for {
		at := p.tok().pos
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		v := &PivotValue{At: at, Expr: e}
		if v.Alias, err = p.alias(); err != nil {
			return nil, err
		}
		pv.Values = append(pv.Values, v)
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	return pv, p.expectOp(")")
}
