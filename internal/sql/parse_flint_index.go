package sql

import "strings"

// flintIndexStatement parses OpenSearch Flint's index statements (see
// docs/sql.md, "Flint indexes"). ok is false, with nothing consumed, when
// the tokens ahead are not one of them, so CREATE TABLE, DROP TABLE,
// DESCRIBE t and the like keep their own parsers.
func (p *parser) flintIndexStatement() (s Statement, ok bool, err error) {
	t := p.tok()
	if t.kind != tkIdent || t.quoted {
		return nil, false, nil
	}
	// skipping: SKIPPING INDEX ON at offset n; covering: INDEX name ON.
	skippingAt := func(n int) bool {
		return isKw(p.peek(n), "SKIPPING") && isKw(p.peek(n+1), "INDEX") && isKw(p.peek(n+2), "ON")
	}
	coveringAt := func(n int) bool {
		return isKw(p.peek(n), "INDEX") && isIdentTok(p.peek(n+1)) && isKw(p.peek(n+2), "ON")
	}
	kw := strings.ToUpper(t.text)
	switch kw {
	case "CREATE":
		if isKw(p.peek(1), "SKIPPING") && isKw(p.peek(2), "INDEX") {
			p.advance()
			p.advance()
			p.advance()
			s, err := p.createSkippingIndex()
			return s, true, err
		}
		if isKw(p.peek(1), "INDEX") {
			p.advance()
			p.advance()
			s, err := p.createCoveringIndex()
			return s, true, err
		}
	case "REFRESH", "DESCRIBE", "DESC", "ALTER", "DROP", "VACUUM":
		action := kw
		if action == "DESC" {
			action = IndexDescribe
		}
		c := &FlintIndexCommand{Action: action}
		switch {
		case skippingAt(1):
			for range 4 { // action SKIPPING INDEX ON
				p.advance()
			}
		case coveringAt(1):
			p.advance()
			p.advance()
			name, _, err := p.ident("index name")
			if err != nil {
				return nil, true, err
			}
			c.Name = name
			p.advance() // ON, which coveringAt saw
		default:
			return nil, false, nil
		}
		if c.Table, _, err = p.qualifiedName("table name"); err != nil {
			return nil, true, err
		}
		if action == IndexAlter {
			if err := p.expectKw("WITH"); err != nil {
				return nil, true, err
			}
			if c.With, err = p.options(); err != nil {
				return nil, true, err
			}
		}
		return c, true, nil
	case "SHOW":
		if (isKw(p.peek(1), "INDEX") || isKw(p.peek(1), "INDEXES")) && isKw(p.peek(2), "ON") {
			p.advance()
			p.advance()
			p.advance()
			name, _, err := p.qualifiedName("table name")
			return &ShowIndexes{Table: name}, true, err
		}
		if isKw(p.peek(1), "FLINT") && (isKw(p.peek(2), "INDEX") || isKw(p.peek(2), "INDEXES")) {
			p.advance()
			p.advance()
			p.advance()
			s := &ShowFlintIndexes{Extended: p.acceptKw("EXTENDED")}
			s.In, err = p.showIn()
			return s, true, err
		}
	case "RECOVER":
		p.advance()
		if err := p.expectKw("INDEX"); err != nil {
			return nil, true, err
		}
		if err := p.expectKw("JOB"); err != nil {
			return nil, true, err
		}
		name, _, err := p.qualifiedName("index job name")
		return &RecoverIndexJob{Name: name}, true, err
	case "ANALYZE":
		if skippingAt(1) {
			p.advance()
			p.advance()
			p.advance()
			p.advance()
			name, _, err := p.qualifiedName("table name")
			return &AnalyzeSkippingIndex{Table: name}, true, err
		}
	}
	return nil, false, nil
}

// createSkippingIndex parses what follows CREATE SKIPPING INDEX.
func (p *parser) createSkippingIndex() (Statement, error) {
	ine, err := p.ifNotExists()
	if err != nil {
		return nil, err
	}
	if err := p.expectKw("ON"); err != nil {
		return nil, err
	}
	s := &CreateSkippingIndex{IfNotExists: ine}
	if s.Table, _, err = p.qualifiedName("table name"); err != nil {
		return nil, err
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	for {
		at := p.tok().pos
		col, _, err := p.qualifiedName("column name")
		if err != nil {
			return nil, err
		}
		kt := p.tok()
		if kt.kind != tkIdent || kt.quoted {
			return nil, p.errExpected("a skip type (PARTITION, VALUE_SET, MIN_MAX, BLOOM_FILTER)")
		}
		c := SkipColumn{At: at, Column: col, Kind: strings.ToUpper(kt.text)}
		switch c.Kind {
		case "PARTITION", "VALUE_SET", "MIN_MAX", "BLOOM_FILTER":
		default:
			return nil, p.errExpected("a skip type (PARTITION, VALUE_SET, MIN_MAX, BLOOM_FILTER)")
		}
		p.advance()
		if p.acceptOp("(") {
			for !p.atOp(")") {
				v, err := p.optionValue()
				if err != nil {
					return nil, err
				}
				c.Params = append(c.Params, v.Value)
				if !p.acceptOp(",") {
					break
				}
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
		}
		s.Columns = append(s.Columns, c)
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectOp(")"); err != nil {
		return nil, p.errExpected("',' or ')'")
	}
	if s.Where, s.With, err = p.indexWhereWith(); err != nil {
		return nil, err
	}
	return s, nil
}

// createCoveringIndex parses what follows CREATE INDEX.
func (p *parser) createCoveringIndex() (Statement, error) {
	ine, err := p.ifNotExists()
	if err != nil {
		return nil, err
	}
	s := &CreateCoveringIndex{IfNotExists: ine}
	if s.Name, _, err = p.ident("index name"); err != nil {
		return nil, err
	}
	if err := p.expectKw("ON"); err != nil {
		return nil, err
	}
	if s.Table, _, err = p.qualifiedName("table name"); err != nil {
		return nil, err
	}
	if s.Columns, err = p.identList("column name"); err != nil {
		return nil, err
	}
	if s.Where, s.With, err = p.indexWhereWith(); err != nil {
		return nil, err
	}
	return s, nil
}

// indexWhereWith reads the optional WHERE pred and WITH (options) that
// end CREATE [SKIPPING] INDEX.
func (p *parser) indexWhereWith() (Expr, Options, error) {
	var where Expr
	var with Options
	var err error
	if p.acceptKw("WHERE") {
		if where, err = p.expr(); err != nil {
			return nil, nil, err
		}
	}
	if p.acceptKw("WITH") {
		if with, err = p.options(); err != nil {
			return nil, nil, err
		}
	}
	return where, with, nil
}
