package sql

// unpivot reads UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR name IN (c [AS
// a], ...)) or ((v1, ...) FOR name IN ((c1, ...) [AS a], ...)), then
// [AS] alias.
func (p *parser) unpivot(from TableExpr) (TableExpr, error) {
	u := &Unpivot{At: p.advance().pos, From: from}
	if p.atKw("INCLUDE") || p.atKw("EXCLUDE") {
		u.IncludeNulls = p.atKw("INCLUDE")
		u.NullsWritten = true
		p.advance()
		if err := p.expectKw("NULLS"); err != nil {
			return nil, err
		}
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	multi := p.atOp("(")
	var err error
	if multi {
		if u.ValueColumns, err = p.identList("value column"); err != nil {
			return nil, err
		}
	} else {
		col, _, err := p.ident("value column")
		if err != nil {
			return nil, err
		}
		u.ValueColumns = []string{col}
	}
	if err := p.expectKw("FOR"); err != nil {
		return nil, err
	}
	if u.NameColumn, _, err = p.ident("name column"); err != nil {
		return nil, err
	}
	if err := p.expectKw("IN"); err != nil {
		return nil, err
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	for {
		it := &UnpivotItem{At: p.tok().pos}
		if multi {
			if err := p.expectOp("("); err != nil {
				return nil, err
			}
		}
		for {
			name, at, err := p.qualifiedName("column name")
			if err != nil {
				return nil, err
			}
			it.Columns = append(it.Columns, &ColumnRef{At: at, Parts: SplitName(name)})
			if !multi || !p.acceptOp(",") {
				break
			}
		}
		if multi {
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
		}
		if it.Alias, err = p.alias(); err != nil {
			return nil, err
		}
		u.Items = append(u.Items, it)
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if u.Alias, err = p.alias(); err != nil {
		return nil, err
	}
	return u, nil
}
