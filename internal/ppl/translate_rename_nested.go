package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// renameNested renames a path into nested structs (rename
// `resource.attributes.service.name` as service): the value becomes a
// column of the new name, and the struct it sits in stays as it is, as
// Sluice cannot take one field out of a struct value. done is false when
// from names no nested field; a column of the new name gives way.
func (t *translator) renameNested(c *Rename, from, to Name, cols []string) (done bool, err error) {
	if t.schema == nil || !strings.Contains(from.Name, ".") {
		return false, nil
	}
	sch, err := t.schema(t.q)
	if err != nil {
		return false, err
	}
	x, _, ok := searchField(from.At, sch, from.Name)
	if !ok {
		return false, nil
	}
	sub := t.sub(c.At)
	x = qualify(x, sub.Alias)
	var items []*sql.SelectItem
	for _, cc := range cols {
		if !strings.EqualFold(cc, to.Name) {
			items = append(items, item(col(c.At, sub.Alias, cc), cc))
		}
	}
	items = append(items, item(x, to.Name))
	t.set(&sql.Select{At: c.At, Items: items, From: sub})
	return true, nil
}

// qualify puts a table alias on the column a field path starts from.
func qualify(x sql.Expr, alias string) sql.Expr {
	switch e := x.(type) {
	case *sql.ColumnRef:
		return col(e.At, append([]string{alias}, e.Parts...)...)
	case *sql.FieldAccess:
		return &sql.FieldAccess{At: e.At, X: qualify(e.X, alias), Name: e.Name}
	}
	return x
}
