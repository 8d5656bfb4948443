package sql

// tableFunctionAhead reports whether [LATERAL] name( starts the FROM item
// here: a table name is never followed by '(', so this is a table-valued
// function.
func (p *parser) tableFunctionAhead() bool {
	n := 0
	if p.atKw("LATERAL") {
		if isOp(p.peek(1), "(") {
			return true // a LATERAL subquery: tableFunction refuses it
		}
		if isIdentTok(p.peek(1)) && isOp(p.peek(2), "(") {
			n = 1
		}
	}
	t := p.peek(n)
	return t.kind == tkIdent && !t.quoted && !isReserved(t.text) && isOp(p.peek(n+1), "(")
}

// tableFunction reads [LATERAL] name(args) [[AS] alias [(col, ...)]].
func (p *parser) tableFunction() (*TableFunction, error) {
	tf := &TableFunction{At: p.tok().pos}
	if p.atKw("LATERAL") {
		p.advance()
		tf.Lateral = true
		if p.atOp("(") {
			return nil, errAt(tf.At, "LATERAL subqueries are not supported; LATERAL takes a generator call (explode, inline, ...)")
		}
	}
	e, err := p.call()
	if err != nil {
		return nil, err
	}
	c, ok := e.(*Call)
	if !ok || c.Over != nil || c.Filter != nil || c.Star || c.Distinct {
		return nil, errAt(tf.At, "expected a table-valued function call in FROM, got %s", e)
	}
	tf.Call = c
	if tf.Alias, err = p.alias(); err != nil {
		return nil, err
	}
	if tf.Columns, err = p.columnAliases(tf.Alias); err != nil {
		return nil, err
	}
	return tf, nil
}
