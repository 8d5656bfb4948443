package sql

// lateralViews reads the LATERAL VIEW clauses after a FROM list, each
// applying to everything before it, as in Spark.
func (p *parser) lateralViews(input TableExpr) (TableExpr, error) {
	for p.atKw("LATERAL") && isKw(p.peek(1), "VIEW") {
		lv := &LateralView{At: p.advance().pos, Input: input}
		p.advance()
		lv.Outer = p.acceptKw("OUTER")
		if !isIdentTok(p.tok()) || !isOp(p.peek(1), "(") {
			return nil, p.errExpected("a generator call after LATERAL VIEW")
		}
		e, err := p.call()
		if err != nil {
			return nil, err
		}
		c, ok := e.(*Call)
		if !ok || c.Over != nil || c.Filter != nil || c.Star || c.Distinct {
			return nil, errAt(lv.At, "expected a generator call after LATERAL VIEW, got %s", e)
		}
		lv.Call = c
		// As in Spark's grammar, the table name is required and AS before
		// the column names is not.
		if !isIdentTok(p.tok()) || p.clauseAhead() {
			return nil, p.errExpected("a table name after LATERAL VIEW " + c.Name + "(...)")
		}
		lv.Table = p.advance().text
		if p.acceptKw("AS") || isIdentTok(p.tok()) && !p.clauseAhead() {
			for {
				name, _, err := p.ident("column name")
				if err != nil {
					return nil, err
				}
				lv.Columns = append(lv.Columns, name)
				if !p.acceptOp(",") {
					break
				}
			}
		}
		input = lv
	}
	return input, nil
}
