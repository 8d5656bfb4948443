package plan

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// View is a logical view's definition: its query and the column names
// it gives the query's output (none: the query's own).
type View struct {
	Name    string
	Query   *sql.Query
	Columns []string
	// Comments are the COMMENTs of Columns ("" for none), or nil.
	Comments []string
	// Output is the names the query's columns had when the view was
	// made. They stand when Columns is empty: a stored view keeps its
	// column names though the names a later binary generates for its
	// unaliased expressions differ (Spark's "View Query Output Columns").
	Output []string
	// Tables, when set, resolves the names inside Query: a stored view's
	// names are those of the database it was made in, not the reader's.
	Tables Tables
}

// Views is the optional ability of a Tables to resolve view names; a
// view is expanded into its query where it is named.
type Views interface {
	// ResolveView returns the view of that name, or nil (and no error)
	// when the name is not a view.
	ResolveView(ctx context.Context, name string) (*View, error)
}

// maxViewDepth bounds views reading views.
const maxViewDepth = 32

// bindView binds te as a view when the name is one (ok), its query
// bound as a CTE's is: it sees none of the outer query's names.
func (b *Binder) bindView(te *sql.TableName, alias string) (Node, *scope, bool, error) {
	vs, can := b.tables.(Views)
	if !can {
		return nil, nil, false, nil
	}
	v, err := vs.ResolveView(b.ctx, te.Name)
	if err != nil {
		return nil, nil, true, &Error{Pos: te.Pos(), Msg: err.Error(), Err: err}
	}
	if v == nil {
		return nil, nil, false, nil
	}
	for _, open := range b.viewStack {
		if strings.EqualFold(open, v.Name) {
			return nil, nil, true, errAt(te, "view %s reads itself (%s -> %s)", v.Name, strings.Join(b.viewStack, " -> "), v.Name)
		}
	}
	if len(b.viewStack) >= maxViewDepth {
		return nil, nil, true, errAt(te, "views nested more than %d deep", maxViewDepth)
	}
	savedCTEs, savedOuter, savedTables := b.ctes, b.outer, b.tables
	b.ctes, b.outer = nil, nil
	if v.Tables != nil {
		b.tables = v.Tables
	}
	b.viewStack = append(b.viewStack, v.Name)
	defer func() {
		b.ctes, b.outer, b.tables = savedCTEs, savedOuter, savedTables
		b.viewStack = b.viewStack[:len(b.viewStack)-1]
	}()
	n, _, err := b.bindQuery(v.Query)
	if err != nil {
		return nil, nil, true, fmt.Errorf("view %s: %w", v.Name, err)
	}
	if len(v.Columns) == 0 {
		n = keepNames(n, v.Output)
	}
	if len(v.Columns) > 0 {
		if n, err = renameColumns(n, v.Columns); err != nil {
			return nil, nil, true, errAt(te, "view %s: %v", v.Name, err)
		}
		n.(*Project).Comments = v.Comments
	}
	return n, scopeFor(alias, n.Schema(), nil), true, nil
}

// keepNames gives n's columns the names a view's query gave them when
// it was made, where they differ now; names of another count (the
// view reads * of a table that changed) are not applied.
func keepNames(n Node, names []string) Node {
	sch := n.Schema()
	if len(names) != sch.NumFields() {
		return n
	}
	same := true
	exprs := make([]expr.Expr, len(names))
	for i, f := range sch.Fields() {
		same = same && f.Name == names[i]
		exprs[i] = expr.Col(i, f.Name, f.Type)
	}
	if same {
		return n
	}
	return &Project{Input: n, Exprs: exprs, Names: append([]string{}, names...)}
}
