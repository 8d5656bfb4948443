package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// viewKind is the catalog Object kind of a stored (not temporary) view.
// Its SQL is the CREATE VIEW statement; it is parsed again at each use,
// so a view reads its tables as they are then (a logical view).
const viewKind = "view"

// viewOptions is what a stored view keeps beside its statement.
type viewOptions struct {
	// Database is where the view was made: the names in its query
	// resolve there, whoever reads it (Spark's "View Catalog and
	// Namespace").
	Database string `json:"database"`
	// Output is the query's own column names when it was made (Spark's
	// "View Query Output Columns").
	Output []string `json:"output,omitempty"`
}

// viewDef is a view as the engine uses it: temporary (in a session) or
// stored (in the catalog).
type viewDef struct {
	Name      string // as stored: db.name outside the default database
	Temporary bool
	Stmt      *sql.CreateView
	Opts      viewOptions
	Created   time.Time
}

// viewStatement runs the statements about logical views, and routes
// DESCRIBE, SHOW CREATE TABLE and DROP TABLE of a view, before names are qualified:
// a temporary view's name is the session's, in no database.
func (e *Engine) viewStatement(ctx context.Context, st sql.Statement) (*Result, bool, error) {
	switch s := st.(type) {
	case *sql.CreateView:
		r, err := e.createView(ctx, s)
		return r, true, err
	case *sql.DropView:
		r, err := e.dropView(ctx, s)
		return r, true, err
	case *sql.AlterView:
		r, err := e.alterView(ctx, s)
		return r, true, err
	case *sql.ShowViews:
		r, err := sparkResult(e.spark().ShowViews(ctx, s))
		return r, true, err
	case *sql.DescribeTable:
		v, err := e.lookupView(ctx, s.Name)
		if err != nil || v == nil {
			return nil, false, nil
		}
		r, err := sparkResult(e.spark().DescribeView(ctx, sparkView(v), s))
		return r, true, err
	case *sql.ShowCreateTable:
		v, err := e.lookupView(ctx, s.Name)
		if err != nil || v == nil {
			return nil, false, nil
		}
		r, err := sparkResult(e.spark().ShowCreateView(ctx, sparkView(v)))
		return r, true, err
	case *sql.DropTable:
		if e.session(ctx).tempView(s.Name) != nil {
			// Spark's DROP TABLE drops a temporary view of that name.
			r, err := e.dropView(ctx, &sql.DropView{Name: s.Name, IfExists: s.IfExists})
			return r, true, err
		}
		v, err := e.lookupView(ctx, s.Name)
		if err == nil && v != nil {
			return nil, true, usererr.Errorf(usererr.Invalid, "DROP TABLE %s: it is a view; use DROP VIEW", v.Name)
		}
	}
	return nil, false, nil
}

// createView checks the view's query binds (in the database the view
// is made in, its column list matching) and records it: in the
// session when temporary, in the catalog otherwise.
func (e *Engine) createView(ctx context.Context, s *sql.CreateView) (*Result, error) {
	if s.OrReplace && s.IfNotExists {
		return nil, usererr.New(usererr.Invalid, "CREATE VIEW: OR REPLACE and IF NOT EXISTS cannot both be given")
	}
	db := e.currentDB(ctx)
	v := &viewDef{Name: s.Name, Temporary: s.Temporary, Stmt: s, Created: e.now()}
	if s.Temporary {
		if len(sql.SplitName(s.Name)) > 1 {
			return nil, usererr.Errorf(usererr.Invalid, "CREATE TEMPORARY VIEW %s: a temporary view's name has no database", s.Name)
		}
		if err := checkName(s.Name); err != nil {
			return nil, fmt.Errorf("CREATE TEMPORARY VIEW: %w", err)
		}
		if !s.OrReplace && e.session(ctx).tempView(s.Name) != nil {
			if s.IfNotExists {
				return message("temporary view %s already exists", s.Name), nil
			}
			return nil, fmt.Errorf("CREATE TEMPORARY VIEW: temporary view %q %w", s.Name, catalog.ErrExists)
		}
	} else {
		var err error
		if db, v.Name, err = e.catalog.ResolveName(s.Name, db); err != nil {
			return nil, fmt.Errorf("CREATE VIEW: %w", err)
		}
		if _, err := e.catalog.Object("mview", v.Name); err == nil {
			return nil, usererr.Errorf(usererr.Exists, "CREATE VIEW %s: %s is a materialized view", s.Name, v.Name)
		}
		if _, err := e.catalog.Table(v.Name); err == nil {
			return nil, usererr.Errorf(usererr.Exists, "CREATE VIEW %s: %s is a table, not a view", s.Name, v.Name)
		}
		if old, _ := e.storedView(v.Name); old != nil && !s.OrReplace {
			if s.IfNotExists {
				return message("view %s already exists", v.Name), nil
			}
			return nil, fmt.Errorf("CREATE VIEW: view %q %w", v.Name, catalog.ErrExists)
		}
	}
	v.Opts.Database = db
	// Bound as it will be read, with this definition in place of any
	// older one of the name, so a view reading itself (through others
	// too) is refused now rather than at every use.
	r := tableResolver{e: e, db: db, permanent: !s.Temporary, pending: v}
	if _, err := plan.NewBinder(ctx, r).BindQuery(viewQuery(s.Name)); err != nil {
		return nil, fmt.Errorf("CREATE VIEW %s: %w", s.Name, err)
	}
	n, err := plan.NewBinder(ctx, r).BindQuery(s.Query)
	if err != nil {
		return nil, fmt.Errorf("CREATE VIEW %s: %w", s.Name, err)
	}
	for _, f := range n.Schema().Fields() {
		v.Opts.Output = append(v.Opts.Output, f.Name)
	}
	if s.Temporary {
		e.session(ctx).putTempView(v)
		return message("temporary view %s created", s.Name), nil
	}
	raw, err := json.Marshal(v.Opts)
	if err != nil {
		return nil, fmt.Errorf("CREATE VIEW %s: %w", s.Name, err)
	}
	obj := &catalog.Object{Kind: viewKind, Name: v.Name, SQL: s.String(), Options: raw, Created: v.Created}
	if err := e.catalog.PutObject(obj, s.OrReplace); err != nil {
		return nil, fmt.Errorf("CREATE VIEW: %w", err)
	}
	return message("view %s created", v.Name), nil
}

// viewQuery is SELECT * FROM name.
func viewQuery(name string) *sql.Query {
	return sql.NewQuery(sql.NewSelect(sql.TableRef(name), sql.AllColumns()))
}

// dropView drops a temporary view of the name, else the stored one.
func (e *Engine) dropView(ctx context.Context, s *sql.DropView) (*Result, error) {
	if e.session(ctx).dropTempView(s.Name) {
		return message("temporary view %s dropped", s.Name), nil
	}
	stored, err := e.qualify(ctx, s.Name)
	if err != nil {
		return nil, fmt.Errorf("DROP VIEW: %w", err)
	}
	if _, err := e.catalog.Object("mview", stored); err == nil {
		return nil, usererr.Errorf(usererr.Invalid, "DROP VIEW %s: it is a materialized view; use DROP MATERIALIZED VIEW", stored)
	}
	if _, err := e.catalog.Table(stored); err == nil {
		return nil, usererr.Errorf(usererr.Invalid, "DROP VIEW %s: it is a table; use DROP TABLE", stored)
	}
	if err := e.catalog.DropObject(viewKind, stored, s.IfExists); err != nil {
		return nil, fmt.Errorf("DROP VIEW: %w", err)
	}
	return message("view %s dropped", stored), nil
}

// lookupView is the view a name means in ctx's session: a temporary
// view for a bare name, else a stored one; nil when it is neither.
func (e *Engine) lookupView(ctx context.Context, name string) (*viewDef, error) {
	if v := e.session(ctx).tempView(name); v != nil {
		return v, nil
	}
	stored, err := e.qualify(ctx, name)
	if err != nil {
		return nil, err
	}
	return e.storedView(stored)
}

// storedView reads a view from the catalog; nil when there is none.
func (e *Engine) storedView(stored string) (*viewDef, error) {
	o, err := e.catalog.Object(viewKind, stored)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st, err := sql.ParseOne(o.SQL)
	if err != nil {
		return nil, fmt.Errorf("view %s: reading its definition: %w", o.Name, err)
	}
	cv, ok := st.(*sql.CreateView)
	if !ok {
		return nil, fmt.Errorf("view %s: its definition is not a CREATE VIEW", o.Name)
	}
	v := &viewDef{Name: o.Name, Stmt: cv, Created: o.Created}
	if len(o.Options) > 0 {
		if err := json.Unmarshal(o.Options, &v.Opts); err != nil {
			return nil, fmt.Errorf("view %s: reading its options: %w", o.Name, err)
		}
	}
	if v.Opts.Database == "" {
		v.Opts.Database, _ = catalog.SplitStored(o.Name)
	}
	return v, nil
}

var _ plan.Views = tableResolver{}

// ResolveView is plan.Views: a view's query binds with the names of the
// database it was made in. Inside a stored view temporary views are not
// seen (they would vanish with the session that made them).
func (r tableResolver) ResolveView(ctx context.Context, name string) (*plan.View, error) {
	v, err := r.findView(ctx, name)
	if v == nil || err != nil {
		return nil, err
	}
	inner := r
	inner.db, inner.permanent = v.Opts.Database, r.permanent || !v.Temporary
	return &plan.View{Name: v.Name, Query: v.Stmt.Query, Columns: v.Stmt.Columns, Comments: v.Stmt.ColumnComments, Output: v.Opts.Output, Tables: inner}, nil
}

func (r tableResolver) findView(ctx context.Context, name string) (*viewDef, error) {
	if r.pending != nil && r.pending.Temporary && strings.EqualFold(name, r.pending.Name) {
		return r.pending, nil
	}
	if t := r.e.session(ctx).tempView(name); t != nil {
		if r.permanent {
			return nil, usererr.Errorf(usererr.Invalid, "a stored view cannot read temporary view %s", t.Name)
		}
		return t, nil
	}
	stored, err := r.qualify(ctx, name)
	if err != nil {
		// ResolveTable reports the name.
		return nil, nil
	}
	if r.pending != nil && !r.pending.Temporary && strings.EqualFold(stored, r.pending.Name) {
		return r.pending, nil
	}
	return r.e.storedView(stored)
}

// tempView is the session's temporary view of that (bare) name, or nil.
func (s *Session) tempView(name string) *viewDef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.views[strings.ToLower(name)]
}

func (s *Session) putTempView(v *viewDef) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.views == nil {
		s.views = map[string]*viewDef{}
	}
	s.views[strings.ToLower(v.Name)] = v
}

func (s *Session) dropTempView(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := strings.ToLower(name)
	_, ok := s.views[k]
	delete(s.views, k)
	return ok
}

// tempViews lists the session's temporary views.
func (s *Session) tempViews() []*viewDef {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*viewDef, 0, len(s.views))
	for _, v := range s.views {
		out = append(out, v)
	}
	return out
}
