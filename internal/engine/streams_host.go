package engine

import (
	"context"
	"os"
	"strings"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/flint"
	"sluice/internal/job"
	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/streams"
)

// Streams (INSERT, START, STOP, SHOW and DESCRIBE STREAM, their planning,
// workers, EXPLAIN and the streams API) live in internal/streams; this
// file is all the engine knows of them: streamsHost, what streams.Host
// asks of the engine, and the public methods that forward to them.

// streamsHost is the engine as streams.Host: each method forwards to the
// engine's own, in the session ctx carries.
type streamsHost struct{ e *Engine }

var _ streams.Host = streamsHost{}

// streams runs the engine's stream statements (it holds no state: every
// call makes a new one).
func (e *Engine) streams() *streams.Streams { return streams.New(streamsHost{e}) }

// streamsResult is a streams answer as the engine's: a message, or
// string rows printed redacted (stringRows).
func streamsResult(r *streams.Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	if r.Columns != nil {
		return stringRows(r.Columns, r.Rows), nil
	}
	return &Result{Message: r.Message}, nil
}

// StreamInfo is one stream or materialized view as the service's JSON
// API and metrics report it (streams.Info).
type StreamInfo = streams.Info

// Stream kinds in StreamInfo.
const (
	KindStream = streams.KindStream
	KindView   = streams.KindView
)

// Streams lists every stream and materialized view of the catalog, by
// name, with what this process knows of its run (or, for one not running
// here, its last commit).
func (e *Engine) Streams(ctx context.Context) ([]StreamInfo, error) { return e.streams().List(ctx) }

// Stream is one stream (by its name) or materialized view (by the view's
// name); catalog.ErrNotFound when there is neither.
func (e *Engine) Stream(ctx context.Context, name string) (StreamInfo, error) {
	return e.streams().Get(ctx, name)
}

// DeadLetterRow is one bad row of a stream's dead_letter_location.
type DeadLetterRow = streams.DeadLetterRow

// DeadLetters is the newest bad rows (at most limit) of stream name's
// dead_letter_location; location is "" when it keeps none.
func (e *Engine) DeadLetters(ctx context.Context, name string, limit int) (location string, rows []DeadLetterRow, err error) {
	return e.streams().DeadLetters(ctx, name, limit)
}

// Resume starts, through Options.Background, every stream the catalog
// records as asked to run, every materialized view and skipping index
// with auto_refresh = true: after a restart (clean or not) each resumes
// from its checkpoint. It returns the names of those started; the error
// joins one error per stream that could not start, each naming it, and
// the others still run.
func (e *Engine) Resume(ctx context.Context) ([]string, error) { return e.streams().Resume(ctx) }

// LocalStreams is the status of every stream this process has run (a
// view's under mv_<view>), by lower-case stream name, from memory only:
// no checkpoint is read, so it is cheap to poll (the server's history
// samples it every few seconds, S3 checkpoints included).
func (e *Engine) LocalStreams() map[string]job.Status { return e.jobs.Local() }

// StreamName is the name INSERT STREAM s runs its stream under, as the
// engine will record it when it runs s under ctx (ctx's session gives
// the current database; streams.Name). Callers that report a submitted
// stream (the query manager, the server's async queries) ask here, so
// they name the stream the catalog and STOP STREAM know.
func (e *Engine) StreamName(ctx context.Context, s *sql.InsertStream) string {
	table := s.Table
	if q, err := e.qualify(ctx, table); err == nil {
		table = q
	}
	return streams.Name(table, s.With)
}

// launch runs one stream through the job manager (job.Manager.Launch):
// in the foreground without Options.Background, else through it,
// returning once the stream started (or failed before it could); failed
// background runs retry. settle, when set, runs after a background
// stream ended by itself or was stopped.
func (e *Engine) launch(ctx context.Context, name string, run func(context.Context) (*Result, error), settle func()) (*Result, error) {
	// The stream keeps the session as it is now: a later USE or SET in it,
	// or its expiry, does not reach the running stream (nor its retries).
	sess := e.session(ctx).detached()
	return e.jobs.Launch(WithSession(ctx, sess), name, func(ctx context.Context) (*Result, error) {
		return run(WithSession(ctx, sess))
	}, settle)
}

// clock drives the streams' triggers: Options.Clock, else the wall clock.
func (e *Engine) clock() stream.Clock {
	if e.opts.Clock != nil {
		return e.opts.Clock
	}
	return stream.SystemClock{}
}

// resolveCheckpoint opens the checkpoint location as a store and prefix,
// with the session's s3. settings.
func (e *Engine) resolveCheckpoint(ctx context.Context, loc string) (storage.Store, string, error) {
	if !strings.Contains(loc, "://") {
		if err := os.MkdirAll(loc, 0o755); err != nil {
			return nil, "", err
		}
	}
	s3 := map[string]string{}
	for k, v := range e.session(ctx).settingsCopy() {
		if rest, ok := strings.CutPrefix(k, "s3."); ok {
			s3[rest] = v
		}
	}
	so, err := storage.OptionsFromMap(s3)
	if err != nil {
		return nil, "", err
	}
	st, prefix, err := storage.Resolve(ctx, loc, so)
	if err != nil {
		return nil, "", err
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return st, prefix, nil
}

func (h streamsHost) Catalog() *catalog.Catalog { return h.e.catalog }
func (h streamsHost) Now() time.Time            { return h.e.now() }
func (h streamsHost) Clock() stream.Clock       { return h.e.clock() }
func (h streamsHost) DataDir() string           { return h.e.opts.DataDir }
func (h streamsHost) Background() bool          { return h.e.opts.Background != nil }
func (h streamsHost) Runs() streams.Runs        { return h.e.jobs }

func (h streamsHost) Launch(ctx context.Context, name string, run func(context.Context) (*streams.Result, error), settle func()) (*streams.Result, error) {
	r, err := h.e.launch(ctx, name, func(ctx context.Context) (*Result, error) {
		return streamsResult(run(ctx))
	}, settle)
	if err != nil {
		return nil, err
	}
	return &streams.Result{Message: r.Message}, nil
}

func (h streamsHost) CheckLocations(ctx context.Context, opts map[string]string) error {
	return h.e.checkStreamLocations(ctx, opts)
}

func (h streamsHost) QueryContext(ctx context.Context) context.Context {
	return h.e.queryContext(ctx)
}

func (h streamsHost) Tables(o streams.TableOptions) plan.Tables {
	return tableResolver{e: h.e, overrides: o.Overrides, watermarkDelay: o.WatermarkDelay, eventTimeColumn: o.EventTimeColumn}
}

func (h streamsHost) EvolveTable(t *catalog.Table, n plan.Node, cols []string, dryRun bool) (*catalog.Table, plan.Node, []string, error) {
	return h.e.evolveTable(t, n, cols, dryRun)
}

func (h streamsHost) CompileOptions(qctx context.Context) physical.Options {
	return h.e.compileOptions(qctx)
}

func (h streamsHost) ResolveCheckpoint(ctx context.Context, loc string) (storage.Store, string, error) {
	return h.e.resolveCheckpoint(ctx, loc)
}

func (h streamsHost) OpenSink(ctx context.Context, spec connector.TableSpec, o connector.SinkOptions) (connector.Sink, error) {
	o.TempDir = h.e.tempDir()
	return registry.OpenSink(ctx, spec, h.e.env(ctx), o)
}

func (h streamsHost) OpenSource(ctx context.Context, spec connector.TableSpec, overrides map[string]string) (connector.Source, error) {
	return registry.OpenSource(ctx, spec, h.e.env(ctx), overrides)
}

func (h streamsHost) EpochSlots() stream.Semaphore { return h.e.opts.EpochSlots }

func (h streamsHost) Progress(p stream.Progress) {
	if h.e.opts.StreamProgress != nil {
		h.e.opts.StreamProgress(p)
	}
}

func (h streamsHost) RefreshView(ctx context.Context, name string, spec flint.ViewSpec) error {
	_, err := h.e.flint().RefreshView(ctx, name, spec)
	return err
}

func (h streamsHost) ResumeIndexes(ctx context.Context) ([]string, error) {
	return h.e.flint().ResumeSkippingIndexes(ctx)
}
