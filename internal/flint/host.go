package flint

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/storage"
)

// Host is what Flint's statements need of the engine that runs them: its
// catalog and clock, name resolution and planning in the caller's session,
// batch queries, and the streams that refresh views and indexes. The
// engine implements it with an adapter (engine/flint_host.go); this
// package never imports the engine, so everything it uses of it is here.
//
// Every ctx is the statement's: it carries the caller's session (its
// database, settings and user), which Host methods resolve names and
// settings in. Methods are safe for concurrent use.
type Host interface {
	// Catalog holds the definitions (kinds "mview", "flint_index"), the
	// sink tables and the streams' records.
	Catalog() *catalog.Catalog
	// Now is the engine's clock for Created stamps (UTC).
	Now() time.Time
	// Env is what connectors take defaults from: the data directory ("":
	// none, so a checkpoint location must be given) and the session's
	// settings.
	Env(ctx context.Context) connector.Env
	// Qualify gives a table name as written its stored db.table form in
	// the session's database; it does not check that the table exists.
	Qualify(ctx context.Context, name string) (string, error)
	// Table is the table a statement names (qualified as Qualify does);
	// its not-found error (catalog.ErrNotFound) suggests a close name.
	Table(ctx context.Context, name string) (*catalog.Table, error)
	// Database resolves SHOW ... IN db: "" is the session's database, any
	// other must exist.
	Database(ctx context.Context, in string) (string, error)
	// PlanQuery binds and optimizes q as a batch query in the session,
	// now() fixed for the statement.
	PlanQuery(ctx context.Context, q *sql.Query) (plan.Node, error)
	// Select runs q as a batch query to completion.
	Select(ctx context.Context, q *sql.Query) ([]arrow.RecordBatch, error)
	// Warn tells the user of a condition that does not fail the
	// statement; a no-op when no one listens.
	Warn(msg string)
	// ResolveCheckpoint opens a checkpoint location (a local directory,
	// made if missing, or a URL read with the session's s3. settings) as
	// a store and a prefix ending in "/" (or "").
	ResolveCheckpoint(ctx context.Context, loc string) (storage.Store, string, error)
	// DropTable forgets t: its data first when the engine manages it (an
	// error leaves t in the catalog), then its catalog entry.
	DropTable(ctx context.Context, t *catalog.Table) error

	// RunStream plans s and runs it in the foreground until it ends by
	// itself (available_now), ctx is cancelled, or it fails; it returns
	// the stream's closing message. A run that registers is what LastRun
	// reports afterwards.
	RunStream(ctx context.Context, s Stream) (string, error)
	// ExplainStream plans s as RunStream would, opening and recording
	// nothing, and returns EXPLAIN's lines.
	ExplainStream(ctx context.Context, s Stream) ([]string, error)
	// Launch runs the named stream through run: in the foreground (with
	// the engine's retries) when Background is false, else in the
	// background, returning once it started or failed to. run gets the
	// stream's own ctx (a detached copy of the session).
	Launch(ctx context.Context, name string, run func(context.Context) (string, error)) (string, error)
	// Background reports whether the engine runs streams in the
	// background: only then does an ALTER that turns auto_refresh on
	// start the refresh.
	Background() bool
	// IsRunning reports whether the named stream runs (or is retrying)
	// in this process.
	IsRunning(name string) bool
	// StopIfRunning stops the named stream at its next epoch boundary
	// and waits for it; false when it did not run here.
	StopIfRunning(name string) bool
	// LastRun is the named stream's latest run in this process, nil when
	// there was none. Runs compare equal exactly when they are the same
	// run, so a statement that compares LastRun before and after it ran
	// a stream knows whether that registered a run.
	LastRun(name string) Run
	// StreamStatus is the status of the stream the catalog records under
	// name (kind "stream"), from this process's run or else from its
	// checkpoint; false when the catalog has no such stream.
	StreamStatus(ctx context.Context, name string) (StreamStatus, bool)
}

// Stream is one refresh as the Host runs it: the query whose rows go to
// Table, and the stream's trigger, checkpoint and options.
type Stream struct {
	// Name is the stream's: mv_<view>, or si_<index> for a skipping index.
	Name  string
	Table string
	Query *sql.Query
	// Trigger is a stream trigger ("available_now", "1 minute").
	Trigger    string
	Checkpoint string
	Options    map[string]string
	// Sink, when set, is Table's definition before the catalog has it:
	// EXPLAIN CREATE MATERIALIZED VIEW plans into the table the view
	// would create.
	Sink *catalog.Table
	// Wrap, when set, stands between the stream and Table's sink.
	Wrap *SinkWrap
}

// SinkWrap puts a sink between a stream and its table's sink (a skipping
// index folds rows per file); Schema is what the stream's query must
// produce, instead of the table's schema.
type SinkWrap struct {
	Schema *arrow.Schema
	Wrap   func(connector.Sink) connector.Sink
}

// Run is one run of a stream in this process (Host.LastRun).
type Run interface {
	Status() StreamStatus
}

// StreamStatus is the part of a stream's status views and indexes show.
type StreamStatus struct {
	State     string
	Epochs    int64
	LastError string
}

// stateRunning is the State of a stream that runs (engine.StateRunning).
const stateRunning = "running"
