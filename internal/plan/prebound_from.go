package plan

import (
	"strings"

	"sluice/internal/sql"
)

// boundFrom is a FROM item already bound (Binder.prebound).
type boundFrom struct {
	node Node
	sc   *scope
}

// preboundFrom binds t and keeps the result for the next bindFrom of t,
// so a rewrite of PIVOT or UNPIVOT into a query over t binds t once.
func (b *Binder) preboundFrom(t sql.TableExpr) (*scope, error) {
	n, sc, err := b.bindFrom(t)
	if err != nil {
		return nil, err
	}
	if b.prebound == nil {
		b.prebound = map[sql.TableExpr]boundFrom{}
	}
	b.prebound[t] = boundFrom{node: n, sc: sc}
	return sc, nil
}

// colRef names a scope column so that it resolves to that column again.
func colRef(c *scopeCol, at sql.Pos) *sql.ColumnRef {
	if c.Table != "" {
		return &sql.ColumnRef{At: at, Parts: []string{c.Table, c.Name}}
	}
	return &sql.ColumnRef{At: at, Parts: []string{c.Name}}
}

// findRef resolves a column reference of a PIVOT or UNPIVOT clause in
// its FROM item's scope.
func findRef(sc *scope, r *sql.ColumnRef) (*scopeCol, error) {
	table, name := "", r.Parts[len(r.Parts)-1]
	if len(r.Parts) > 1 {
		table = strings.Join(r.Parts[:len(r.Parts)-1], ".")
	}
	c, err := sc.find(table, name)
	if err != nil {
		return nil, errAt(r, "%v", err)
	}
	if c == nil {
		return nil, errAt(r, "column %s not found; the FROM clause has %s", r, sc.names())
	}
	return c, nil
}
