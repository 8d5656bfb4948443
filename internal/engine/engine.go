// Package engine is Sluice's facade: SQL text in, results or running
// queries out. It owns the catalog, plans statements, and runs them on the
// exec driver.
//
//	eng, _ := engine.Open(engine.Options{DataDir: "./sluice-data"})
//	defer eng.Close()
//	res, _ := eng.Execute(ctx, "SELECT status, count(*) FROM logs GROUP BY status")
//	for _, r := range res { fmt.Println(r.Schema, len(r.Batches)) }
//
// # What the engine knows of connectors
//
// The engine opens, infers and drops tables through connector/registry and
// the connector package's interfaces; it imports no connector folder
// (internal/archtest checks it). It and its packages know some connector
// facts by name: internal/streams fills a stream sink's "id" option when
// the sink's Factory declares that key (slices.Contains(f.OptionKeys,
// "id"): streams/keyed_ids.go), as internal/flint, by the same rule,
// defaults a view's and an index's sink to the "index" connector and
// fills their "index" and "id". Neither the engine nor internal/streams imports a
// transport (NATS, Kafka, SQS, internal/queue): workers of a shared
// stream reach each other through stream/partition (Dial) and connector
// abilities (archtest again).
//
// # Sessions
//
// Session (session.go) holds one client's database, SET settings and user;
// the CLI has one, sluice serve one per client (server's sessions.go, keyed
// by sessionId). A stream takes a copy of its session when it starts.
//
// # Statements
//
// expandPPL (ppl.go) translates a PPL query body into SQL before
// qualifyStatement, so everything after sees SQL. Queries the engine and
// internal/flint make themselves (covering and skipping indexes, a view's
// id column) are built as trees with internal/sql's constructors
// (build.go), never as SQL text to parse again
// (internal/archtest/reparse_test.go checks it). Binding opens
// each table through tableResolver (tables.go), which hands a file table's
// skipping index data to its source (connector.FileSkipper, through
// flint.FileSkipping): that reads the index table, for EXPLAIN too.
// Spark's auxiliary statements (SET, DESCRIBE, SHOW, ALTER TABLE, the
// database statements, the table commands, INSERT's BY NAME, PARTITION
// and OVERWRITE steps) are internal/engine/sparkstmt's: dispatch calls
// one Runner method per statement, and sparkstmt_host.go is all they ask
// of the engine (sparkstmt.Host). A restricted session's data rule is
// internal/engine/access's (session_access.go).
//
// # Streams, views and indexes
//
// Streams are internal/streams': dispatch hands INSERT, START, STOP,
// SHOW and DESCRIBE STREAM to it (and EXPLAIN INSERT STREAM), and
// streams_host.go is all it asks of the engine (streams.Host: the
// catalog and clock, binding a query in the caller's session through
// tableResolver, evolving a dynamic sink, compile options, checkpoints,
// sinks and sources opened through the registry, the job manager and
// launch, which captures the statement's session). The public Streams,
// Stream, Resume, StreamName and LocalStreams forward there.
// Materialized views, covering and skipping indexes are internal/flint's:
// dispatch hands their statements to it, and flint_host.go is all it
// asks of the engine (flint.Host; its streams run through
// internal/streams too). Stream and view WITH options are checked
// against internal/job's table. Logical views (CREATE VIEW, view.go)
// are the engine's own: catalog objects of kind "view" (a temporary
// view the session's), expanded by the binder through
// tableResolver.ResolveView, their names resolved in the database they
// were made in.
//
// # Background runs and retries
//
// The streams running in this process and the submitted queries are
// internal/job's Manager (e.jobs): launch (streams_host.go) captures the
// statement's session and hands the run to job.Manager.Launch, which runs
// it in the foreground or through Options.Background and reruns a
// background stream whose run failed with an error job.Retryable accepts
// (anything not a user error, plan error, state mismatch or state over
// the limit); each rerun is a whole new run, the crash-recovery path, so
// the replayed epoch is exactly once. A foreground stream retries
// unreachable-broker errors too. STOP reaches a run here through the
// Manager, and a stream waiting to retry in another process through its
// checkpoint's stop marker (streams.StopMarker). With Options.Background,
// Resume restarts the streams recorded as running.
package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/engine/sparkstmt"
	"sluice/internal/exec"
	"sluice/internal/job"
	"sluice/internal/physical"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// Options configure an Engine.
type Options struct {
	// DataDir holds the catalog, local indices and default checkpoints.
	// Empty means an in-memory catalog (tests).
	DataDir string
	// Now fixes now()/current_date for deterministic tests; nil means time.Now.
	Now func() time.Time
	// Progress, when set, is told about files and bytes scanned by batch
	// queries (the CLI draws a progress bar from it).
	Progress func(Progress)
	// Parallelism bounds concurrent file reads; 0 means GOMAXPROCS.
	Parallelism int
	// StreamProgress, when set, hears about every committed epoch of a
	// streaming query (the CLI prints one line each).
	StreamProgress func(stream.Progress)
	// Clock drives streaming triggers; nil is the wall clock.
	Clock stream.Clock
	// Background, when set, runs streams in the background (see
	// job.Background); nil runs them in the foreground of their statement.
	Background job.Background
	// EpochSlots, when set, bounds how many epochs run at once across
	// every stream of this engine.
	EpochSlots stream.Semaphore
	// RetryInitial and RetryMax are the backoff of background streams
	// that fail with a transient error (job.Retryable), and of foreground
	// ones whose queue is unreachable: the first retry after
	// RetryInitial, doubling up to RetryMax (0: job.DefaultRetryInitial,
	// job.DefaultRetryMax). A negative RetryInitial turns retries off.
	RetryInitial, RetryMax time.Duration
	// MemoryLimit bounds each query's operator state in bytes (SET
	// memory_limit overrides it for the session); 0 is unlimited.
	MemoryLimit int64
	// Warn, when set, hears warnings: conditions that do not fail the
	// statement but may make its result surprising (a table whose
	// location does not exist reads as empty). The CLI prints them on
	// stderr.
	Warn func(msg string)
}

// Progress is a snapshot of a running scan.
type Progress struct {
	FilesDone, FilesTotal int
	BytesDone, BytesTotal int64
	RowsRead              int64
}

// Result is what one statement produced: rows (Schema != nil) or a
// message ("table created", "3 rows inserted").
type Result struct {
	// Statement is the statement's source text.
	Statement string
	Schema    *arrow.Schema
	Batches   []arrow.RecordBatch
	Message   string
	// Written is how many rows an INSERT wrote, when Wrote is set (a
	// message result).
	Written int64
	Wrote   bool
}

// ErrNotSupported wraps statements the parser knows but this build cannot
// run yet. It is the compiler's own, so plans it cannot compile match too.
var ErrNotSupported = physical.ErrNotSupported

// Engine runs statements. It is safe for concurrent use.
type Engine struct {
	opts    Options
	catalog *catalog.Catalog

	def *Session // the CLI's session: calls whose ctx carries none run in it
	// jobs is the registry of the streams this process runs and of the
	// submitted queries.
	jobs *job.Manager[*Result]
	// spills counts the spill files batch queries wrote (tests).
	spills atomic.Int64
}

// Open opens (creating if needed) the data directory and its catalog.
func Open(opts Options) (*Engine, error) {
	dir := opts.DataDir
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("opening data directory: %w", err)
		}
		opts.DataDir = abs
	}
	cat, err := catalog.Open(opts.DataDir)
	if err != nil {
		return nil, err
	}
	e := &Engine{opts: opts, catalog: cat}
	e.jobs = job.NewManager(job.Config[*Result]{
		Now: e.now, Background: opts.Background, RetryInitial: opts.RetryInitial, RetryMax: opts.RetryMax,
		Warn: e.warnFunc(), Message: message, StopMarker: func(ctx context.Context, name string) (job.StopMarker, bool) {
			return e.streams().StopMarker(ctx, name)
		},
	})
	e.def = e.NewSession("")
	// Scratch files of a process that was killed mid-write are swept;
	// those of processes still running hold a lock and stay.
	if dir := e.tempDir(); dir != "" {
		for _, prefix := range []string{connector.TempFilePrefix, exec.SpillFilePrefix} {
			if _, err := storage.SweepTemp(dir, prefix); err != nil {
				return nil, fmt.Errorf("opening data directory: %w", err)
			}
		}
	}
	if err := e.sweepPending(context.Background()); err != nil {
		return nil, fmt.Errorf("opening data directory: %w", err)
	}
	return e, nil
}

// tempDir is where sinks keep scratch files: <data dir>/tmp, or the
// system temp dir without a data dir.
func (e *Engine) tempDir() string {
	if e.opts.DataDir == "" {
		return ""
	}
	return filepath.Join(e.opts.DataDir, "tmp")
}

// Close releases the engine's resources.
func (e *Engine) Close() error { return nil }

// Catalog exposes the catalog (for tools and tests).
func (e *Engine) Catalog() *catalog.Catalog { return e.catalog }

func (e *Engine) now() time.Time {
	if e.opts.Now != nil {
		return e.opts.Now().UTC()
	}
	return time.Now().UTC()
}

// Execute runs every statement of a script in order and stops at the
// first error, returning the results of the statements before it.
func (e *Engine) Execute(ctx context.Context, script string) ([]*Result, error) {
	stmts, err := sql.Parse(script)
	if err != nil {
		return nil, sql.RedactError(err)
	}
	var out []*Result
	for _, st := range stmts {
		r, err := e.ExecuteStatement(ctx, st)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ExecuteStatement runs one parsed statement.
func (e *Engine) ExecuteStatement(ctx context.Context, st sql.Statement) (*Result, error) {
	r, err := e.dispatch(connector.WithWarn(ctx, e.warnFunc()), st)
	if err != nil {
		// Errors quote locations, endpoints and statement text: no URL
		// user info may leave the engine in them.
		return nil, sql.RedactError(err)
	}
	// String() prints secrets in OPTIONS as *** where Text() is the raw source.
	r.Statement = st.String()
	return r, nil
}

func (e *Engine) dispatch(ctx context.Context, st sql.Statement) (*Result, error) {
	st, err := e.expandPPL(ctx, st)
	if err != nil {
		return nil, err
	}
	if r, ok, err := e.viewStatement(ctx, st); ok {
		return r, err
	}
	st, err = e.qualifyStatement(ctx, st)
	if err != nil {
		return nil, err
	}
	switch s := st.(type) {
	case *sql.SelectStmt:
		return e.runSelect(ctx, s.Query)
	case *sql.CreateTable:
		return e.createTable(ctx, s)
	case *sql.DropTable:
		return e.dropTable(ctx, s)
	case *sql.ShowTables:
		return sparkResult(e.spark().ShowTables(ctx, s))
	case *sql.DescribeTable:
		return sparkResult(e.spark().DescribeTable(s))
	case *sql.ShowCreateTable:
		return sparkResult(e.spark().ShowCreateTable(s.Name))
	case *sql.Insert:
		return e.insert(ctx, s)
	case *sql.Explain:
		return e.explain(ctx, s)
	case *sql.Set:
		return sparkResult(e.spark().Set(ctx, s))
	case *sql.Reset:
		return sparkResult(e.spark().Reset(ctx, s))
	case *sql.ShowSettings:
		return sparkResult(e.spark().ShowSettings(ctx))
	case *sql.CreateDatabase:
		return sparkResult(e.spark().CreateDatabase(ctx, s))
	case *sql.DropDatabase:
		return sparkResult(e.spark().DropDatabase(ctx, s))
	case *sql.UseDatabase:
		return sparkResult(e.spark().Use(ctx, s))
	case *sql.ShowDatabases:
		return sparkResult(e.spark().ShowDatabases(ctx, s))
	case *sql.ShowTblProperties:
		return sparkResult(e.spark().ShowTblProperties(s))
	case *sql.AlterTable:
		return sparkResult(e.spark().AlterTable(ctx, s))
	case *sql.TableCommand:
		return sparkResult(e.spark().TableCommand(ctx, s))
	case *sql.ClearCache:
		return sparkResult(e.spark().ClearCache(), nil)
	case *sql.ShowColumns:
		return sparkResult(e.spark().ShowColumns(ctx, s))
	case *sql.ShowPartitions:
		return sparkResult(e.spark().ShowPartitions(ctx, s))
	case *sql.ShowFunctions:
		return sparkResult(e.spark().ShowFunctions(s), nil)
	case *sql.DescribeFunction:
		return sparkResult(e.spark().DescribeFunction(ctx, s))
	case *sql.DescribeQuery:
		return sparkResult(e.spark().DescribeQuery(ctx, s))
	case *sql.SetTimeZone:
		return sparkResult(e.spark().SetTimeZone(ctx, s))
	case *sql.CreateTableLike:
		return sparkResult(e.spark().CreateTableLike(ctx, s))
	case *sql.DescribeDatabase:
		return sparkResult(e.spark().DescribeDatabase(ctx, s))
	case *sql.ShowCatalogs:
		return sparkResult(sparkstmt.ShowCatalogs(s), nil)
	case *sql.ShowCurrentNamespace:
		return sparkResult(e.spark().ShowCurrentNamespace(ctx), nil)
	case *sql.ShowTableExtended:
		return sparkResult(e.spark().ShowTableExtended(ctx, s))
	}
	// Streams (internal/streams).
	if r, ok, err := e.streams().Execute(ctx, st); ok {
		return streamsResult(r, err)
	}
	// Materialized views and Flint indexes (internal/flint).
	if r, ok, err := e.flint().Execute(ctx, st); ok {
		return flintResult(r, err)
	}
	return nil, fmt.Errorf("%s: %w", statementName(st), ErrNotSupported)
}

// statementName is the statement's leading keywords, for errors.
func statementName(st sql.Statement) string {
	words := strings.Fields(st.Text())
	if len(words) > 3 {
		words = words[:3]
	}
	return strings.ToUpper(strings.Join(words, " "))
}

func message(format string, args ...any) *Result {
	return &Result{Message: sql.RedactText(fmt.Sprintf(format, args...))}
}

// warnFunc passes a connector's warning on to Options.Warn, redacted; nil
// when there is no one to tell.
func (e *Engine) warnFunc() func(string) {
	if e.opts.Warn == nil {
		return nil
	}
	return func(msg string) { e.opts.Warn(sql.RedactText(msg)) }
}
