package sql

import "strings"

// tableCommand parses Spark's statements that only name a table
// (TRUNCATE, MSCK REPAIR, CACHE, UNCACHE, ANALYZE), CLEAR CACHE and SET
// TIME ZONE. ok is false when none starts here.
func (p *parser) tableCommand() (s Statement, ok bool, err error) {
	t := p.tok()
	c := &TableCommand{}
	switch strings.ToUpper(t.text) {
	case "TRUNCATE":
		c.Command = TruncateTable
		p.advance()
		if err := p.expectKw("TABLE"); err != nil {
			return nil, true, err
		}
	case "MSCK":
		c.Command = RepairTable
		p.advance()
		if err := p.expectKw("REPAIR"); err != nil {
			return nil, true, err
		}
		if err := p.expectKw("TABLE"); err != nil {
			return nil, true, err
		}
	case "CACHE":
		c.Command = CacheTable
		p.advance()
		c.Lazy = p.acceptKw("LAZY")
		if err := p.expectKw("TABLE"); err != nil {
			return nil, true, err
		}
	case "UNCACHE":
		c.Command = UncacheTable
		p.advance()
		if err := p.expectKw("TABLE"); err != nil {
			return nil, true, err
		}
		if c.IfExists, err = p.ifExists(); err != nil {
			return nil, true, err
		}
	case "ANALYZE":
		if !isKw(p.peek(1), "TABLE") {
			return nil, false, nil
		}
		c.Command = AnalyzeTable
		p.advance()
		p.advance()
	case "CLEAR":
		if !isKw(p.peek(1), "CACHE") {
			return nil, false, nil
		}
		p.advance()
		p.advance()
		return &ClearCache{}, true, nil
	case "SET":
		if !isKw(p.peek(1), "TIME") || !isKw(p.peek(2), "ZONE") {
			return nil, false, nil
		}
		for range 3 {
			p.advance()
		}
		s, err := p.setTimeZone()
		return s, true, err
	default:
		return nil, false, nil
	}
	if c.Name, _, err = p.qualifiedName("table name"); err != nil {
		return nil, true, err
	}
	if c.Command == CacheTable && (p.atKw("AS") || p.atKw("OPTIONS")) {
		return nil, true, errAt(p.tok().pos, "CACHE TABLE ... %s is not supported: Sluice keeps no result cache", strings.ToUpper(p.tok().text))
	}
	if c.Command == AnalyzeTable {
		if p.atKw("PARTITION") {
			return nil, true, errAt(p.tok().pos, "ANALYZE TABLE ... PARTITION is not supported: statistics are kept for a whole table")
		}
		if err := p.expectKw("COMPUTE"); err != nil {
			return nil, true, err
		}
		if err := p.expectKw("STATISTICS"); err != nil {
			return nil, true, err
		}
		c.NoScan = p.acceptKw("NOSCAN")
		if !c.NoScan && p.acceptKw("FOR") {
			if p.acceptKw("ALL") {
				c.AllColumns = true
				err = p.expectKw("COLUMNS")
				return c, true, err
			}
			if err := p.expectKw("COLUMNS"); err != nil {
				return nil, true, err
			}
			for {
				name, _, err := p.ident("column name")
				if err != nil {
					return nil, true, err
				}
				c.Columns = append(c.Columns, name)
				if !p.acceptOp(",") {
					break
				}
			}
		}
	}
	return c, true, nil
}

func (p *parser) setTimeZone() (Statement, error) {
	t := p.tok()
	switch {
	case isKw(t, "LOCAL"):
		p.advance()
		return &SetTimeZone{Local: true}, nil
	case t.kind == tkString:
		p.advance()
		return &SetTimeZone{Zone: t.text}, nil
	case isKw(t, "INTERVAL"):
		e, err := p.intervalLiteral()
		if err != nil {
			return nil, err
		}
		lit, ok := e.(*Literal)
		if !ok {
			return nil, errAt(t.pos, "SET TIME ZONE INTERVAL: want a constant interval")
		}
		return &SetTimeZone{Interval: lit}, nil
	}
	return nil, p.errExpected("LOCAL, a time zone string or an INTERVAL")
}

// createTableLike parses, after CREATE TABLE [IF NOT EXISTS] name, LIKE
// source [USING fmt] [LOCATION '...'] [TBLPROPERTIES (...)].
func (p *parser) createTableLike(ine bool, name string) (Statement, error) {
	p.advance()
	src, _, err := p.qualifiedName("table name")
	if err != nil {
		return nil, err
	}
	c := &CreateTableLike{IfNotExists: ine, Name: name, Source: src}
	for {
		switch {
		case p.acceptKw("USING"):
			if c.Using, _, err = p.ident("format name"); err != nil {
				return nil, err
			}
		case p.acceptKw("LOCATION"):
			if c.Location, err = p.stringLit("location string"); err != nil {
				return nil, err
			}
		case p.acceptKw("TBLPROPERTIES"):
			if c.TblProperties, err = p.options(); err != nil {
				return nil, err
			}
		default:
			return c, nil
		}
	}
}
