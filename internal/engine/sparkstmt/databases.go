package sparkstmt

import (
	"context"
	"fmt"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/storage"
)

// CreateDatabase runs CREATE DATABASE.
func (e *Runner) CreateDatabase(ctx context.Context, s *sql.CreateDatabase) (*Result, error) {
	name, err := catalog.ResolveDatabaseName(s.Name, e.currentDB(ctx))
	if err != nil {
		return nil, fmt.Errorf("CREATE DATABASE: %w", err)
	}
	props := map[string]string{}
	for _, o := range s.Properties {
		props[o.Key] = o.Value.Value
	}
	if err := e.h.CheckLocation(ctx, "LOCATION", storage.NormalizeLocation(s.Location)); err != nil {
		return nil, fmt.Errorf("CREATE DATABASE %s: %w", name, err)
	}
	d := &catalog.Database{Name: name, Comment: s.Comment, Location: s.Location, Properties: props, Created: e.h.Now()}
	if s.IfNotExists && e.catalog.HasDatabase(name) {
		return message("database %s already exists", name), nil
	}
	if err := e.catalog.CreateDatabase(d, s.IfNotExists); err != nil {
		return nil, fmt.Errorf("CREATE DATABASE: %w", err)
	}
	return message("database %s created", name), nil
}

// DropDatabase runs DROP DATABASE; CASCADE drops its tables and views
// first, each as DROP TABLE / DROP MATERIALIZED VIEW would.
func (e *Runner) DropDatabase(ctx context.Context, s *sql.DropDatabase) (*Result, error) {
	name, err := catalog.ResolveDatabaseName(s.Name, e.currentDB(ctx))
	if err != nil {
		return nil, fmt.Errorf("DROP DATABASE: %w", err)
	}
	if !e.catalog.HasDatabase(name) {
		if s.IfExists {
			return message("no database %s: nothing dropped", name), nil
		}
		return nil, fmt.Errorf("DROP DATABASE: database %q %w", name, catalog.ErrNotFound)
	}
	if s.Cascade && name != catalog.DefaultDatabase {
		ts, err := e.catalog.Tables()
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if db, _ := catalog.SplitStored(t.Spec.Name); db != name {
				continue
			}
			if _, err := e.catalog.Object("mview", t.Spec.Name); err == nil {
				if err := e.h.DropMView(ctx, t.Spec.Name); err != nil {
					return nil, fmt.Errorf("DROP DATABASE %s CASCADE: %w", name, err)
				}
				continue
			}
			if err := e.h.ForgetTable(ctx, t); err != nil {
				return nil, fmt.Errorf("DROP DATABASE %s CASCADE: table %s: %w", name, t.Spec.Name, err)
			}
		}
		views, err := e.catalog.Objects(viewKind)
		if err != nil {
			return nil, err
		}
		for _, v := range views {
			if db, _ := catalog.SplitStored(v.Name); db == name {
				if err := e.catalog.DropObject(viewKind, v.Name, true); err != nil {
					return nil, fmt.Errorf("DROP DATABASE %s CASCADE: view %s: %w", name, v.Name, err)
				}
			}
		}
	}
	if err := e.catalog.DropDatabase(name, s.IfExists); err != nil {
		return nil, fmt.Errorf("DROP DATABASE: %w", err)
	}
	e.h.ForgetDatabase(ctx, name)
	return message("database %s dropped", name), nil
}

// Use runs USE db.
func (e *Runner) Use(ctx context.Context, s *sql.UseDatabase) (*Result, error) {
	name, err := catalog.ResolveDatabaseName(s.Name, e.currentDB(ctx))
	if err != nil {
		return nil, fmt.Errorf("USE: %w", err)
	}
	if !e.catalog.HasDatabase(name) {
		return nil, fmt.Errorf("USE: database %q %w", name, catalog.ErrNotFound)
	}
	e.h.Use(ctx, name)
	return message("using database %s", name), nil
}
