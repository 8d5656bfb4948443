package sql

// createDatabase parses the rest of CREATE {DATABASE | SCHEMA}
// [IF NOT EXISTS] name [COMMENT 's'] [LOCATION 's'] [WITH DBPROPERTIES (...)].
func (p *parser) createDatabase() (Statement, error) {
	ine, err := p.ifNotExists()
	if err != nil {
		return nil, err
	}
	name, _, err := p.qualifiedName("database name")
	if err != nil {
		return nil, err
	}
	s := &CreateDatabase{IfNotExists: ine, Name: name}
	for {
		switch {
		case p.acceptKw("COMMENT"):
			if s.Comment, err = p.stringLit("comment string"); err != nil {
				return nil, err
			}
		case p.acceptKw("LOCATION"):
			if s.Location, err = p.stringLit("location string"); err != nil {
				return nil, err
			}
		case p.atKw("WITH") && isKw(p.peek(1), "DBPROPERTIES"):
			p.advance()
			p.advance()
			if s.Properties, err = p.options(); err != nil {
				return nil, err
			}
		default:
			return s, nil
		}
	}
}

// dropDatabase parses the rest of DROP {DATABASE | SCHEMA} [IF EXISTS]
// name [RESTRICT | CASCADE].
func (p *parser) dropDatabase() (Statement, error) {
	ie, err := p.ifExists()
	if err != nil {
		return nil, err
	}
	name, _, err := p.qualifiedName("database name")
	if err != nil {
		return nil, err
	}
	s := &DropDatabase{IfExists: ie, Name: name}
	if p.acceptKw("CASCADE") {
		s.Cascade = true
	} else {
		p.acceptKw("RESTRICT")
	}
	return s, nil
}

// use parses USE [DATABASE | SCHEMA] name.
func (p *parser) use() (Statement, error) {
	p.advance()
	if (p.atKw("DATABASE") || p.atKw("SCHEMA") || p.atKw("NAMESPACE")) && isIdentTok(p.peek(1)) {
		p.advance()
	}
	name, _, err := p.qualifiedName("database name")
	return &UseDatabase{Name: name}, err
}

// showIn reads an optional IN | FROM [catalog.]db after SHOW TABLES and
// SHOW MATERIALIZED VIEWS.
func (p *parser) showIn() (string, error) {
	if !p.atKw("IN") && !p.atKw("FROM") {
		return "", nil
	}
	p.advance()
	name, _, err := p.qualifiedName("database name")
	return name, err
}

// isDatabaseKw reports whether t is DATABASE, SCHEMA or NAMESPACE.
func isDatabaseKw(t token) bool {
	return isKw(t, "DATABASE") || isKw(t, "SCHEMA") || isKw(t, "NAMESPACE")
}
