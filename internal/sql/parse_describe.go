package sql

import "strings"

// describe parses DESCRIBE | DESC, after the keyword: STREAM,
// MATERIALIZED VIEW, FUNCTION [EXTENDED] f, [QUERY] query, or Spark's
// [TABLE] [EXTENDED | FORMATTED] name [column].
func (p *parser) describe() (Statement, error) {
	p.advance()
	// QUERY is a keyword only when a query follows, as in Spark.
	// Without it, TABLE starts DESCRIBE TABLE t, not the query TABLE t.
	if p.atKw("QUERY") && p.startsQueryAt(1) || !p.atKw("TABLE") && p.startsQueryAt(0) {
		p.acceptKw("QUERY")
		q, err := p.query()
		return &DescribeQuery{Query: q}, err
	}
	// STREAM, MATERIALIZED, FUNCTION and EXTENDED are keywords only when a
	// name follows, so a table called stream can still be described.
	if p.atKw("STREAM") && isIdentTok(p.peek(1)) {
		p.advance()
		name, _, err := p.ident("stream name")
		return &DescribeStream{Name: name}, err
	}
	if (p.atKw("DATABASE") || p.atKw("SCHEMA") || p.atKw("NAMESPACE")) && isIdentTok(p.peek(1)) {
		p.advance()
		d := &DescribeDatabase{}
		if p.atKw("EXTENDED") && isIdentTok(p.peek(1)) {
			p.advance()
			d.Extended = true
		}
		var err error
		d.Name, _, err = p.qualifiedName("database name")
		return d, err
	}
	if p.atKw("MATERIALIZED") && isKw(p.peek(1), "VIEW") {
		p.advance()
		p.advance()
		name, _, err := p.qualifiedName("view name")
		return &DescribeMaterializedView{Name: name}, err
	}
	if p.atKw("FUNCTION") && (isIdentTok(p.peek(1)) || p.peek(1).kind == tkString) {
		p.advance()
		d := &DescribeFunction{}
		if p.atKw("EXTENDED") && (isIdentTok(p.peek(1)) || p.peek(1).kind == tkString) {
			p.advance()
			d.Extended = true
		}
		var err error
		if p.tok().kind == tkString {
			d.Name, err = p.stringLit("function name")
		} else {
			d.Name, _, err = p.qualifiedName("function name")
		}
		return d, err
	}
	d := &DescribeTable{}
	// Spark writes DESCRIBE TABLE EXTENDED t; DESCRIBE EXTENDED TABLE t
	// reads as well.
	p.describeTableWord()
	if (p.atKw("EXTENDED") || p.atKw("FORMATTED")) && isIdentTok(p.peek(1)) {
		d.Extended = true
		d.Formatted = strings.EqualFold(p.advance().text, "FORMATTED")
		p.describeTableWord()
	}
	var err error
	if d.Name, _, err = p.qualifiedName("table name"); err != nil {
		return nil, err
	}
	if isIdentTok(p.tok()) {
		d.Column, _, err = p.qualifiedName("column name")
	}
	return d, err
}

// describeTableWord skips an optional TABLE that a name follows.
func (p *parser) describeTableWord() {
	if p.atKw("TABLE") && isIdentTok(p.peek(1)) {
		p.advance()
	}
}
