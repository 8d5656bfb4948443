package engine

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/engine/sparkstmt"
	"sluice/internal/plan"
	"sluice/internal/sql"
)

// Spark's auxiliary statements (DESCRIBE, SHOW, ALTER TABLE, the table
// commands, ...) live in internal/engine/sparkstmt; dispatch calls them
// one by one, and this file is all they know of the engine: sparkHost,
// what sparkstmt.Host asks of it.

// sparkHost is the engine as sparkstmt.Host: each method forwards to the
// engine's own, in the session ctx carries.
type sparkHost struct{ e *Engine }

var _ sparkstmt.Host = sparkHost{}

// spark runs the engine's auxiliary statements (it holds no state: every
// call makes a new one).
func (e *Engine) spark() *sparkstmt.Runner { return sparkstmt.New(sparkHost{e}) }

// sparkResult is a sparkstmt answer as the engine's: a message, or
// string rows printed redacted (stringRows).
func sparkResult(r *sparkstmt.Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	if r.Columns != nil {
		return stringRows(r.Columns, r.Rows), nil
	}
	return &Result{Message: r.Message}, nil
}

// sparkView is v as sparkstmt sees it; nil for nil.
func sparkView(v *viewDef) *sparkstmt.View {
	if v == nil {
		return nil
	}
	return &sparkstmt.View{Name: v.Name, Temporary: v.Temporary, Stmt: v.Stmt,
		Database: v.Opts.Database, Output: v.Opts.Output, Created: v.Created}
}

func (h sparkHost) Catalog() *catalog.Catalog { return h.e.catalog }
func (h sparkHost) Now() time.Time            { return h.e.now() }
func (h sparkHost) DataDir() string           { return h.e.opts.DataDir }
func (h sparkHost) Tables() plan.Tables       { return tableResolver{e: h.e} }

func (h sparkHost) IsManaged(t *catalog.Table) bool { return h.e.isManaged(t) }

func (h sparkHost) Qualify(ctx context.Context, name string) (string, error) {
	return h.e.qualify(ctx, name)
}

func (h sparkHost) SuggestTable(ctx context.Context, name string, err error) error {
	return h.e.suggestTable(ctx, name, err)
}

func (h sparkHost) DatabaseOf(ctx context.Context, in string) (string, error) {
	return h.e.databaseOf(ctx, in)
}

func (h sparkHost) Settings(ctx context.Context) map[string]string {
	return h.e.session(ctx).settingsCopy()
}

func (h sparkHost) Set(ctx context.Context, key, value string) { h.e.session(ctx).set(key, value) }
func (h sparkHost) Reset(ctx context.Context, key string)      { h.e.session(ctx).reset(key) }
func (h sparkHost) Use(ctx context.Context, db string)         { h.e.session(ctx).use(db) }
func (h sparkHost) ForgetDatabase(ctx context.Context, db string) {
	h.e.session(ctx).forgetDatabase(db)
}

func (h sparkHost) CheckLocation(ctx context.Context, option, loc string) error {
	return h.e.session(ctx).restriction().CheckLocation(option, loc)
}

func (h sparkHost) LookupView(ctx context.Context, name string) (*sparkstmt.View, error) {
	v, err := h.e.lookupView(ctx, name)
	return sparkView(v), err
}

func (h sparkHost) StoredView(stored string) (*sparkstmt.View, error) {
	v, err := h.e.storedView(stored)
	return sparkView(v), err
}

func (h sparkHost) TempViews(ctx context.Context) []*sparkstmt.View {
	var out []*sparkstmt.View
	for _, v := range h.e.session(ctx).tempViews() {
		out = append(out, sparkView(v))
	}
	return out
}

func (h sparkHost) QueryContext(ctx context.Context) context.Context {
	return h.e.queryContext(ctx)
}

func (h sparkHost) TablesRead(ctx context.Context, q *sql.Query) []string {
	var seen []string
	_, _ = plan.NewBinder(ctx, tableResolver{e: h.e, seen: &seen}).BindQuery(q)
	return seen
}

func (h sparkHost) TableIndexes(table string) ([]string, error) {
	return h.e.flint().TableIndexes(table)
}

func (h sparkHost) Collect(ctx context.Context, q *sql.Query) ([]arrow.RecordBatch, error) {
	r, err := h.e.runSelect(ctx, q)
	if err != nil {
		return nil, err
	}
	return r.Batches, nil
}

func (h sparkHost) OpenSource(ctx context.Context, spec connector.TableSpec) (connector.Source, error) {
	return registry.OpenSource(ctx, spec, h.e.env(ctx), nil)
}

func (h sparkHost) CreateTable(ctx context.Context, c *sql.CreateTable) (string, error) {
	r, err := h.e.createTable(ctx, c)
	if err != nil {
		return "", err
	}
	return r.Message, nil
}

func (h sparkHost) DropMView(ctx context.Context, name string) error {
	_, err := h.e.flint().DropMView(ctx, &sql.DropMaterializedView{Name: name})
	return err
}

func (h sparkHost) ForgetTable(ctx context.Context, t *catalog.Table) error {
	return h.e.forgetTable(ctx, t)
}

func (h sparkHost) DiscoverPartitions(ctx context.Context, spec connector.TableSpec, declared map[string]bool) ([]string, []arrow.Field) {
	return h.e.discoverPartitions(ctx, spec, declared)
}
