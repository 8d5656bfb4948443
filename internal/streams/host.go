package streams

import (
	"context"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/flint"
	"sluice/internal/job"
	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// Host is what the streams need of the engine that runs them: its
// catalog, clock and data directory, binding and compiling a query in
// the caller's session, the connectors it opens, the job manager that
// holds the runs, and the views and indexes Resume restarts. The engine
// implements it with an adapter (engine/streams_host.go); this package
// never imports the engine, so everything it uses of it is here.
//
// Every ctx is the statement's (or, for a running stream, the session
// captured when it started): it carries the caller's session (its
// database, settings and user), which Host methods resolve names and
// settings in. Methods are safe for concurrent use.
type Host interface {
	// Catalog holds the streams' definitions (kind "stream": Spec), the
	// tables they read and write, and the views Resume restarts.
	Catalog() *catalog.Catalog
	// Now is the engine's clock for Created and status stamps (UTC).
	Now() time.Time
	// Clock drives the streams' triggers.
	Clock() stream.Clock
	// DataDir is the engine's data directory, where a stream's
	// checkpoint goes by default; "" without one.
	DataDir() string
	// Background reports whether the engine runs streams in the
	// background (job.Background): only then does a stream record the
	// state it was asked to be in (Spec.Desired).
	Background() bool
	// Runs is the engine's job manager: the runs of this process.
	Runs() Runs
	// Launch runs the named stream through run, in the foreground or the
	// background (job.Manager.Launch); run gets a ctx carrying a detached
	// copy of the caller's session. settle is Launch's.
	Launch(ctx context.Context, name string, run func(context.Context) (*Result, error), settle func()) (*Result, error)
	// CheckLocations refuses a stream's options that name a location
	// the session's user may not write (checkpoint_location, ...).
	CheckLocations(ctx context.Context, opts map[string]string) error
	// QueryContext fixes now() for a statement and gives
	// current_database() the session's database.
	QueryContext(ctx context.Context) context.Context
	// Tables opens the catalog's tables for the binder in the session,
	// with a stream's options over theirs.
	Tables(o TableOptions) plan.Tables
	// EvolveTable prepares a write of n into t: a dynamic table gets the
	// columns it lacks (stored unless dryRun); other tables come back as
	// they are (see the engine's INSERT).
	EvolveTable(t *catalog.Table, n plan.Node, cols []string, dryRun bool) (*catalog.Table, plan.Node, []string, error)
	// CompileOptions are the engine's settings for compiling a plan
	// (parallelism, memory limit); qctx is QueryContext's.
	CompileOptions(qctx context.Context) physical.Options
	// ResolveCheckpoint opens a checkpoint location (a local directory,
	// made if missing, or a URL read with the session's s3. settings) as
	// a store and a prefix ending in "/" (or "").
	ResolveCheckpoint(ctx context.Context, loc string) (storage.Store, string, error)
	// OpenSink opens a table's sink (connector/registry) with the
	// session's settings and the engine's scratch directory.
	OpenSink(ctx context.Context, spec connector.TableSpec, o connector.SinkOptions) (connector.Sink, error)
	// OpenSource opens a table's source with a stream's overrides of its
	// options (STOP STREAM's signal to a stream's workers).
	OpenSource(ctx context.Context, spec connector.TableSpec, overrides map[string]string) (connector.Source, error)
	// EpochSlots bounds the epochs running at once across the engine's
	// streams; nil is no bound.
	EpochSlots() stream.Semaphore
	// Progress hears every committed epoch of every stream.
	Progress(p stream.Progress)
	// RefreshView starts the refresh of a view with auto_refresh (Resume).
	RefreshView(ctx context.Context, name string, spec flint.ViewSpec) error
	// ResumeIndexes starts the refresh of every skipping index with
	// auto_refresh (Resume), returning their streams' names.
	ResumeIndexes(ctx context.Context) ([]string, error)
}

// Runs is what the streams use of the job manager (job.Manager): the
// latest run of each stream in this process.
type Runs interface {
	Current(name string) *job.Run
	Register(ctx context.Context, r *job.Run) error
	IsRunning(name string) bool
	StopIfRunning(name string) bool
}

var _ Runs = (*job.Manager[*Result])(nil)

// TableOptions are what a stream's query reads its tables with.
type TableOptions struct {
	// Overrides replace table options (max_files_per_trigger and the
	// like: sourceOverrides).
	Overrides map[string]string
	// WatermarkDelay, when set, replaces the tables' watermark delay (µs;
	// the option watermark_delay), and EventTimeColumn is where it puts
	// the watermark on a table that declares none.
	WatermarkDelay  *int64
	EventTimeColumn string
}
