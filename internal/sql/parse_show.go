package sql

import "strings"

// showSpark parses Spark's SHOW forms beyond the core ones (after SHOW):
// FUNCTIONS, COLUMNS, PARTITIONS, VIEWS, TABLE EXTENDED, CATALOGS and
// CURRENT NAMESPACE. ok is false
// when none of them starts here.
func (p *parser) showSpark() (s Statement, ok bool, err error) {
	t := p.tok()
	switch {
	case isKw(t, "FUNCTIONS"):
		p.advance()
		s, err := p.showFunctions("")
		return s, true, err
	case isKw(t, "CATALOGS"):
		p.advance()
		like, err := p.showLike()
		return &ShowCatalogs{Like: like}, true, err
	case isKw(t, "CURRENT") && isKw(p.peek(1), "NAMESPACE"):
		p.advance()
		p.advance()
		return &ShowCurrentNamespace{}, true, nil
	case (isKw(t, "USER") || isKw(t, "SYSTEM") || isKw(t, "ALL")) && isKw(p.peek(1), "FUNCTIONS"):
		p.advance()
		p.advance()
		s, err := p.showFunctions(strings.ToUpper(t.text))
		return s, true, err
	case isKw(t, "COLUMNS"):
		p.advance()
		if !p.acceptKw("IN") {
			if err := p.expectKw("FROM"); err != nil {
				return nil, true, err
			}
		}
		name, _, err := p.qualifiedName("table name")
		if err != nil {
			return nil, true, err
		}
		db, err := p.showIn()
		if err != nil {
			return nil, true, err
		}
		if db != "" {
			if strings.Contains(name, ".") {
				return nil, true, errAt(t.pos, "SHOW COLUMNS: give the database once (%s or IN %s)", name, db)
			}
			name = db + "." + name
		}
		return &ShowColumns{Table: name}, true, nil
	case isKw(t, "PARTITIONS"):
		p.advance()
		name, _, err := p.qualifiedName("table name")
		return &ShowPartitions{Table: name}, true, err
	case isKw(t, "VIEWS"):
		p.advance()
		in, err := p.showIn()
		if err != nil {
			return nil, true, err
		}
		like, err := p.showLike()
		return &ShowViews{In: in, Like: like}, true, err
	case isKw(t, "TABLE") && isKw(p.peek(1), "EXTENDED"):
		p.advance()
		p.advance()
		in, err := p.showIn()
		if err != nil {
			return nil, true, err
		}
		if err := p.expectKw("LIKE"); err != nil {
			return nil, true, err
		}
		like, err := p.stringLit("pattern string")
		return &ShowTableExtended{In: in, Like: like}, true, err
	}
	return nil, false, nil
}

func (p *parser) showFunctions(scope string) (Statement, error) {
	like, err := p.showLike()
	return &ShowFunctions{Scope: scope, Like: like}, err
}

// showLike reads Spark's optional [LIKE] 'pattern' ending a SHOW.
func (p *parser) showLike() (string, error) {
	if p.acceptKw("LIKE") {
		return p.stringLit("pattern string")
	}
	if p.tok().kind == tkString {
		return p.stringLit("pattern string")
	}
	return "", nil
}
