package sql

// alterTable parses, after ALTER TABLE, name ADD COLUMNS | RENAME TO |
// SET TBLPROPERTIES | UNSET TBLPROPERTIES | SET LOCATION.
func (p *parser) alterTable() (Statement, error) {
	name, _, err := p.qualifiedName("table name")
	if err != nil {
		return nil, err
	}
	a := &AlterTable{Name: name}
	switch {
	case p.atKw("ADD"):
		p.advance()
		if !p.acceptKw("COLUMNS") {
			if err := p.expectKw("COLUMN"); err != nil {
				return nil, err
			}
		}
		a.Action = AlterAddColumns
		if !p.atOp("(") {
			return nil, p.errExpected("'(' and the new columns")
		}
		c := &CreateTable{}
		if err := p.columnDefs(c); err != nil {
			return nil, err
		}
		if c.Watermark != nil {
			return nil, errAt(c.Watermark.At, "ALTER TABLE ADD COLUMNS cannot add a WATERMARK")
		}
		a.Columns = c.Columns
	case p.atKw("RENAME"):
		p.advance()
		if err := p.expectKw("TO"); err != nil {
			return nil, err
		}
		a.Action = AlterRename
		a.NewName, _, err = p.qualifiedName("new table name")
	case p.atKw("SET") && isKw(p.peek(1), "TBLPROPERTIES"):
		p.advance()
		p.advance()
		a.Action = AlterSetProperties
		a.Properties, err = p.options()
	case p.atKw("UNSET") && isKw(p.peek(1), "TBLPROPERTIES"):
		p.advance()
		p.advance()
		a.Action = AlterUnsetProps
		if a.IfExists, err = p.ifExists(); err != nil {
			return nil, err
		}
		a.Keys, err = p.propertyKeys()
	case p.atKw("SET") && isKw(p.peek(1), "LOCATION"):
		p.advance()
		p.advance()
		a.Action = AlterSetLocation
		a.Location, err = p.stringLit("location string")
	default:
		return nil, p.errExpected("ADD COLUMNS, RENAME TO, SET TBLPROPERTIES, UNSET TBLPROPERTIES or SET LOCATION")
	}
	return a, err
}

// alterView parses, after ALTER VIEW, name RENAME TO new_name | AS query.
func (p *parser) alterView() (Statement, error) {
	name, _, err := p.qualifiedName("view name")
	if err != nil {
		return nil, err
	}
	a := &AlterView{Name: name}
	switch {
	case p.acceptKw("RENAME"):
		if err := p.expectKw("TO"); err != nil {
			return nil, err
		}
		a.NewName, _, err = p.qualifiedName("new view name")
	case p.acceptKw("AS"):
		a.Query, err = p.query()
	default:
		return nil, p.errExpected("RENAME TO or AS")
	}
	return a, err
}

// propertyKeys reads ('key', ...).
func (p *parser) propertyKeys() ([]string, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	var keys []string
	for {
		k, err := p.optionKey("property name")
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
		if !p.acceptOp(",") {
			break
		}
	}
	return keys, p.expectOp(")")
}
