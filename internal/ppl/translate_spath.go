package ppl

import (
	"sluice/internal/sql"
)

// spath sets the output field (in place if there is one) to
// ppl_spath(input, path), text; without a path to ppl_spath_auto(input),
// the map of all its paths.
func (t *translator) spath(c *Spath) error {
	x, err := t.ref(c.Input)
	if err != nil {
		return err
	}
	e := &sql.Call{At: c.At, Name: "ppl_spath", Args: []sql.Expr{x, strLit(c.At, c.Path)}}
	if c.Path == "" {
		// Auto-extract mode: every path into a map of strings, read
		// back with doc.user.name (mapPaths).
		e = &sql.Call{At: c.At, Name: "ppl_spath_auto", Args: []sql.Expr{x}}
	}
	return t.replaceOrAppend(c.At, []string{c.Output}, []sql.Expr{e})
}
