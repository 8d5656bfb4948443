package sql

// createView parses, after CREATE, [OR REPLACE] [GLOBAL] [TEMPORARY |
// TEMP] VIEW ...; ok is false when no view follows (CREATE TABLE,
// CREATE MATERIALIZED VIEW, ...).
func (p *parser) createView() (s Statement, ok bool, err error) {
	n := 0
	orReplace := isKw(p.peek(0), "OR") && isKw(p.peek(1), "REPLACE")
	if orReplace {
		n = 2
	}
	global := isKw(p.peek(n), "GLOBAL")
	if global {
		n++
	}
	temporary := isKw(p.peek(n), "TEMPORARY") || isKw(p.peek(n), "TEMP")
	if temporary {
		n++
	}
	if !isKw(p.peek(n), "VIEW") {
		return nil, false, nil
	}
	if global {
		return nil, true, errAt(p.tok().pos, "GLOBAL TEMPORARY views are not supported: use a TEMPORARY view or a view")
	}
	for range n + 1 {
		p.advance()
	}
	v := &CreateView{OrReplace: orReplace, Temporary: temporary}
	if v.IfNotExists, err = p.ifNotExists(); err != nil {
		return nil, true, err
	}
	if v.IfNotExists && v.OrReplace {
		return nil, true, errAt(p.tok().pos, "CREATE VIEW: OR REPLACE and IF NOT EXISTS cannot both be given")
	}
	if v.Name, _, err = p.qualifiedName("view name"); err != nil {
		return nil, true, err
	}
	if p.atOp("(") && !p.queryAt(parenRun(p)) {
		if v.Columns, v.ColumnComments, err = p.viewColumns(); err != nil {
			return nil, true, err
		}
	}
	if p.acceptKw("COMMENT") {
		if v.Comment, err = p.stringLit("comment string"); err != nil {
			return nil, true, err
		}
	}
	if err := p.expectKw("AS"); err != nil {
		return nil, true, err
	}
	v.Query, err = p.query()
	return v, true, err
}

// viewColumns reads (name [COMMENT '...'], ...); comments is nil when
// no column has one.
func (p *parser) viewColumns() (names, comments []string, err error) {
	p.advance()
	any := false
	for {
		name, _, err := p.ident("column name")
		if err != nil {
			return nil, nil, err
		}
		comment := ""
		if p.acceptKw("COMMENT") {
			if comment, err = p.stringLit("comment string"); err != nil {
				return nil, nil, err
			}
			any = true
		}
		names, comments = append(names, name), append(comments, comment)
		if !p.acceptOp(",") {
			break
		}
	}
	if !any {
		comments = nil
	}
	return names, comments, p.expectOp(")")
}

// dropView parses, after DROP, VIEW [IF EXISTS] name.
func (p *parser) dropView() (Statement, error) {
	p.advance()
	ie, err := p.ifExists()
	if err != nil {
		return nil, err
	}
	name, _, err := p.qualifiedName("view name")
	return &DropView{IfExists: ie, Name: name}, err
}
