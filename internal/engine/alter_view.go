package engine

import (
	"context"
	"fmt"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// alterView runs Spark's ALTER VIEW: AS replaces the view's query, as
// CREATE OR REPLACE VIEW would, keeping its kind and comment; RENAME TO
// gives it a new name (a temporary view in the session, a stored one in
// the catalog, in one write).
func (e *Engine) alterView(ctx context.Context, s *sql.AlterView) (*Result, error) {
	v, err := e.lookupView(ctx, s.Name)
	if err != nil {
		return nil, fmt.Errorf("ALTER VIEW: %w", err)
	}
	if v == nil {
		return nil, usererr.Errorf(usererr.NotFound, "ALTER VIEW: view %q not found", s.Name)
	}
	if s.Query != nil {
		cv := &sql.CreateView{OrReplace: true, Temporary: v.Temporary, Name: s.Name, Comment: v.Stmt.Comment, Query: s.Query}
		if _, err := e.createView(ctx, cv); err != nil {
			return nil, fmt.Errorf("ALTER VIEW %s AS: %w", s.Name, err)
		}
		return message("view %s altered", s.Name), nil
	}
	renamed := *v.Stmt
	renamed.Name = s.NewName
	if v.Temporary {
		if e.session(ctx).tempView(s.NewName) != nil {
			return nil, fmt.Errorf("ALTER VIEW %s RENAME TO: temporary view %q %w", s.Name, s.NewName, catalog.ErrExists)
		}
		if err := checkName(s.NewName); err != nil {
			return nil, fmt.Errorf("ALTER VIEW %s RENAME TO: %w", s.Name, err)
		}
		e.session(ctx).dropTempView(s.Name)
		nv := *v
		nv.Name, nv.Stmt = s.NewName, &renamed
		e.session(ctx).putTempView(&nv)
		return message("temporary view %s renamed to %s", s.Name, s.NewName), nil
	}
	to, err := e.qualify(ctx, s.NewName)
	if err != nil {
		return nil, fmt.Errorf("ALTER VIEW %s RENAME TO: %w", s.Name, err)
	}
	err = e.catalog.RenameObject(viewKind, v.Name, to, func(o *catalog.Object) { o.SQL = renamed.String() })
	if err != nil {
		return nil, fmt.Errorf("ALTER VIEW %s RENAME TO: %w", s.Name, err)
	}
	return message("view %s renamed to %s", v.Name, to), nil
}
