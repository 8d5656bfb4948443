package sql

// orderByAll reads ORDER BY ALL [ASC|DESC] [NULLS FIRST|LAST] if it is
// next: the order of every select-list column, left to right, as DuckDB
// and Spark 4 define it. ALL is reserved, so it never names a column here.
// The item's Expr is nil; it holds the direction and null order.
func (p *parser) orderByAll() (*OrderItem, bool, error) {
	if !p.atKw("ORDER") || !isKw(p.peek(1), "BY") || !isKw(p.peek(2), "ALL") {
		return nil, false, nil
	}
	p.advance()
	p.advance()
	o := &OrderItem{At: p.advance().pos}
	if p.acceptKw("DESC") {
		o.Desc = true
	} else {
		p.acceptKw("ASC")
	}
	if p.acceptKw("NULLS") {
		var first bool
		switch {
		case p.acceptKw("FIRST"):
			first = true
		case p.acceptKw("LAST"):
		default:
			return nil, false, p.errExpected("FIRST or LAST")
		}
		o.NullsFirst = &first
	}
	return o, true, nil
}
