package sql

// Spark's two shorthands for a SELECT: TABLE t is SELECT * FROM t, and
// FROM t SELECT a puts the FROM clause first (Hive's order, which Spark
// keeps). Both parse to the Select they stand for, so they format as it.

// atTableQuery reports whether TABLE name starts a query here.
func (p *parser) atTableQuery() bool { return p.atKw("TABLE") && p.queryAt(0) }

// tableQuery parses TABLE name.
func (p *parser) tableQuery() (*Select, error) {
	at := p.advance().pos
	nameAt := p.tok().pos
	name, _, err := p.qualifiedName("table name")
	if err != nil {
		return nil, err
	}
	return &Select{
		At:    at,
		Items: []*SelectItem{{At: at, Expr: &Star{At: at}}},
		From:  &TableName{At: nameAt, Name: name},
	}, nil
}

// atFromFirst reports whether FROM starts a query here.
func (p *parser) atFromFirst() bool { return p.atKw("FROM") && p.queryAt(0) }

// fromFirst parses FROM from_items SELECT ....
func (p *parser) fromFirst() (*Select, error) {
	p.advance()
	from, err := p.from()
	if err != nil {
		return nil, err
	}
	if from, err = p.pivots(from); err != nil {
		return nil, err
	}
	if !p.atKw("SELECT") {
		return nil, p.errExpected("SELECT after the FROM clause")
	}
	return p.selectBlock(from)
}

// queryAt reports whether the token n ahead begins a query body:
// SELECT, WITH, VALUES, TABLE name or FROM-first.
func (p *parser) queryAt(n int) bool {
	t, next := p.peek(n), p.peek(n+1)
	switch {
	case startsQuery(t):
		return true
	case isKw(t, "TABLE"):
		return isIdentTok(next)
	case isKw(t, "FROM"):
		return isIdentTok(next) || isOp(next, "(")
	}
	return false
}

// startsQueryAt is queryAt, or a parenthesized query there.
func (p *parser) startsQueryAt(n int) bool {
	for isOp(p.peek(n), "(") && n < maxDepth {
		n++
	}
	return p.queryAt(n)
}

// valuesQuery parses VALUES rows [AS name [(cols)]]: Spark names a
// query's inline table as it does one in FROM, so the alias reads as
// SELECT * FROM (VALUES ...) AS name(cols).
func (p *parser) valuesQuery() (QueryBody, error) {
	v, err := p.values()
	if err != nil || !p.atKw("AS") || !isIdentTok(p.peek(1)) {
		return v, err
	}
	p.advance()
	alias, _, err := p.ident("alias")
	if err != nil {
		return nil, err
	}
	var cols []string
	if p.atOp("(") {
		if cols, err = p.identList("column name"); err != nil {
			return nil, err
		}
	}
	return &Select{
		At:    v.At,
		Items: []*SelectItem{{At: v.At, Expr: &Star{At: v.At}}},
		From:  &SubqueryTable{At: v.At, Query: &Query{At: v.At, Body: v}, Alias: alias, Columns: cols},
	}, nil
}
