// Package sparkstmt runs Spark's auxiliary statements: the ones that
// describe, list or adjust catalog objects and session settings rather
// than compute rows. SET and RESET, SET TIME ZONE, CREATE and DROP
// DATABASE, USE, DESCRIBE (table, column, query, function, database,
// view), SHOW (TABLES, TABLE EXTENDED, VIEWS, COLUMNS, PARTITIONS,
// FUNCTIONS, DATABASES, TBLPROPERTIES, CREATE TABLE, CATALOGS, CURRENT
// NAMESPACE), ALTER TABLE, CREATE TABLE LIKE and the table commands
// (ANALYZE, MSCK REPAIR, TRUNCATE, REFRESH, CACHE and UNCACHE TABLE), one
// file each; and INSERT's Spark steps the engine's INSERT calls: BY NAME,
// a static PARTITION clause, OVERWRITE's checks and replacement.
//
// The engine's dispatch (engine.go) is the one list of statements: it
// calls a Runner's method per statement and prints the Result. A Runner
// reaches the engine only through Host; it holds no state of its own,
// so the engine makes one per statement.
package sparkstmt

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/plan"
	"sluice/internal/sql"
)

// Host is what the statements ask of the engine. Every method acts in
// the session ctx carries (its database, settings and data access), and
// none keeps ctx past its return.
type Host interface {
	// Catalog is the engine's catalog, read and updated directly.
	Catalog() *catalog.Catalog
	// Now is the engine's clock, in UTC.
	Now() time.Time
	// DataDir is the engine's data directory; "" for an in-memory catalog.
	DataDir() string
	// Qualify is name as the catalog stores it, resolved in the
	// session's database.
	Qualify(ctx context.Context, name string) (string, error)
	// SuggestTable adds a did-you-mean to err, a failed lookup of table
	// name.
	SuggestTable(ctx context.Context, name string, err error) error
	// DatabaseOf resolves SHOW ... IN db: "" is the session's database,
	// another name must exist (catalog.ErrNotFound).
	DatabaseOf(ctx context.Context, in string) (string, error)
	// Settings is a copy of the session's SET settings; Set changes one
	// and Reset drops it.
	Settings(ctx context.Context) map[string]string
	Set(ctx context.Context, key, value string)
	Reset(ctx context.Context, key string)
	// Use makes db (which exists) the session's database; ForgetDatabase
	// moves a session using db, just dropped, back to the default one.
	Use(ctx context.Context, db string)
	ForgetDatabase(ctx context.Context, db string)
	// CheckLocation is nil when the session may point option (LOCATION)
	// at loc.
	CheckLocation(ctx context.Context, option, loc string) error
	// IsManaged reports whether DROP removes t's data.
	IsManaged(t *catalog.Table) bool
	// LookupView is the view name refers to (a temporary view first),
	// nil without error when there is none; StoredView the stored view
	// of a qualified name, nil when there is none.
	LookupView(ctx context.Context, name string) (*View, error)
	StoredView(stored string) (*View, error)
	// TempViews are the session's temporary views, in no order.
	TempViews(ctx context.Context) []*View
	// QueryContext is ctx with the statement's now() and
	// current_database(), as a query runs in.
	QueryContext(ctx context.Context) context.Context
	// Tables opens the catalog's tables and views for the binder.
	Tables() plan.Tables
	// TablesRead names the catalog tables q reads, through views too;
	// none when q no longer binds.
	TablesRead(ctx context.Context, q *sql.Query) []string
	// TableIndexes names the Flint indexes on table.
	TableIndexes(table string) ([]string, error)
	// Collect runs q as a batch query and returns its rows.
	Collect(ctx context.Context, q *sql.Query) ([]arrow.RecordBatch, error)
	// OpenSource opens a table's source with the session's settings.
	OpenSource(ctx context.Context, spec connector.TableSpec) (connector.Source, error)
	// CreateTable runs CREATE TABLE c (names qualified) and returns its
	// message.
	CreateTable(ctx context.Context, c *sql.CreateTable) (string, error)
	// DropMView drops materialized view name as DROP MATERIALIZED VIEW
	// does; ForgetTable drops table t from the catalog, and its data when
	// it is managed (DROP DATABASE CASCADE drops each table so).
	DropMView(ctx context.Context, name string) error
	ForgetTable(ctx context.Context, t *catalog.Table) error
	// DiscoverPartitions finds the key=value folders under spec's
	// location: their names, and fields for those not in declared.
	DiscoverPartitions(ctx context.Context, spec connector.TableSpec, declared map[string]bool) ([]string, []arrow.Field)
}

// View is a logical view as the engine keeps it: temporary (in a
// session) or stored (in the catalog).
type View struct {
	Name      string // as stored: db.name outside the default database
	Temporary bool
	Stmt      *sql.CreateView
	// Database is where the view was made; Output its query's own column
	// names then.
	Database string
	Output   []string
	Created  time.Time
}

// viewKind is the catalog Object kind of a stored view (the engine's
// view.go writes them).
const viewKind = "view"

// Result is a statement's answer: a message, or STRING rows when
// Columns is set (the engine prints every cell redacted; NullCell is
// SQL NULL).
type Result struct {
	Message string
	Columns []string
	Rows    [][]string
}

// NullCell in a Result row is SQL NULL.
const NullCell = nullCell

// Runner runs the statements over a Host.
type Runner struct {
	h       Host
	catalog *catalog.Catalog
}

// New is a Runner over h.
func New(h Host) *Runner { return &Runner{h: h, catalog: h.Catalog()} }

func message(format string, args ...any) *Result {
	return &Result{Message: sql.RedactText(fmt.Sprintf(format, args...))}
}

// stringRows is a Result of STRING columns.
func stringRows(cols []string, rows [][]string) *Result {
	return &Result{Columns: cols, Rows: rows}
}

// redact is how an option value may be shown (sql.RedactValue).
func redact(key, value string) string { return sql.RedactValue(key, value) }

func (e *Runner) bindQuery(ctx context.Context, q *sql.Query) (plan.Node, error) {
	return plan.NewBinder(ctx, e.h.Tables()).BindQuery(q)
}

// viewQuery is SELECT * FROM name: a view's columns are what it binds to.
func viewQuery(name string) *sql.Query {
	return sql.NewQuery(sql.NewSelect(sql.TableRef(name), sql.AllColumns()))
}

// currentDB is the session's database.
func (e *Runner) currentDB(ctx context.Context) string {
	db, _ := e.h.DatabaseOf(ctx, "")
	return db
}
