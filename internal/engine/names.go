package engine

import (
	"context"
	"errors"
	"fmt"

	"sluice/internal/catalog"
	"sluice/internal/safepath"
	"sluice/internal/sql"
	"sluice/internal/suggest"
	"sluice/internal/usererr"
)

// currentDB is the database USE chose in ctx's session ("default" until
// then).
func (e *Engine) currentDB(ctx context.Context) string {
	return e.session(ctx).Database()
}

// qualify turns a table or view name as written ([catalog.][db.]name)
// into the name the catalog keeps it under.
func (e *Engine) qualify(ctx context.Context, name string) (string, error) {
	_, stored, err := e.catalog.ResolveName(name, e.currentDB(ctx))
	return stored, err
}

// qualifyStatement returns st with its table and view names resolved to
// catalog names (a copy when anything changed; st itself is left alone).
// Names inside queries are resolved by the binder, after CTEs.
func (e *Engine) qualifyStatement(ctx context.Context, st sql.Statement) (sql.Statement, error) {
	q := func(name *string) error {
		if *name == "" {
			return nil
		}
		s, err := e.qualify(ctx, *name)
		if err != nil {
			return fmt.Errorf("%s: %w", statementName(st), err)
		}
		*name = s
		return nil
	}
	return sql.QualifyNames(st, q)
}

// suggestTable adds a did-you-mean to a table-not-found error, from the
// tables of the name's database.
func (e *Engine) suggestTable(ctx context.Context, name string, err error) error {
	if !errors.Is(err, catalog.ErrNotFound) {
		return err
	}
	ts, lerr := e.catalog.Tables()
	if lerr != nil {
		return err
	}
	db, _, rerr := e.catalog.ResolveName(name, e.currentDB(ctx))
	if rerr != nil {
		return err
	}
	parts := sql.SplitName(name)
	var known []string
	for _, t := range ts {
		if tdb, n := catalog.SplitStored(t.Spec.Name); tdb == db {
			known = append(known, n)
		}
	}
	if s := suggest.Closest(parts[len(parts)-1], known); s != "" {
		return fmt.Errorf("%w; did you mean %q?", err, s)
	}
	return err
}

// checkName is safepath.CheckName, its refusal a user error.
func checkName(name string) error {
	return usererr.Wrap(usererr.Invalid, safepath.CheckName(name))
}

// databaseOf resolves SHOW ... IN db ("" is the current database).
func (e *Engine) databaseOf(ctx context.Context, in string) (string, error) {
	if in == "" {
		return e.currentDB(ctx), nil
	}
	name, err := catalog.ResolveDatabaseName(in, e.currentDB(ctx))
	if err != nil {
		return "", err
	}
	if !e.catalog.HasDatabase(name) {
		return "", fmt.Errorf("database %q %w", name, catalog.ErrNotFound)
	}
	return name, nil
}
