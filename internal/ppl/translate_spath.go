package ppl

import (
	"sluice/internal/sql"
)

// spath sets the output field (in place if there is one) to
// ppl_spath(input, path), text.
func (t *translator) spath(c *Spath) error {
	x, err := t.ref(c.Input)
	if err != nil {
		return err
	}
	e := &sql.Call{At: c.At, Name: "ppl_spath", Args: []sql.Expr{x, strLit(c.At, c.Path)}}
	return t.replaceOrAppend(c.At, []string{c.Output}, []sql.Expr{e})
}
