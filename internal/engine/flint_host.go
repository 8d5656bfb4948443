package engine

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/flint"
	"sluice/internal/job"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/streams"
)

// Materialized views and Flint's indexes live in internal/flint; this
// file is all the engine knows of them: flintHost, what flint.Host asks
// of the engine, and the conversion of flint's results into the engine's.

// flintHost is the engine as flint.Host: each method forwards to the
// engine's own, in the session ctx carries.
type flintHost struct{ e *Engine }

var _ flint.Host = flintHost{}

// flint runs the engine's view and index statements (it holds no state:
// every call makes a new one).
func (e *Engine) flint() *flint.Flint { return flint.New(flintHost{e}) }

// flintResult is a flint answer as the engine's: a message, or string
// rows printed redacted (stringRows).
func flintResult(r *flint.Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	if r.Columns != nil {
		return stringRows(r.Columns, r.Rows), nil
	}
	return &Result{Message: r.Message}, nil
}

func (h flintHost) Catalog() *catalog.Catalog             { return h.e.catalog }
func (h flintHost) Now() time.Time                        { return h.e.now() }
func (h flintHost) Env(ctx context.Context) connector.Env { return h.e.env(ctx) }
func (h flintHost) Qualify(ctx context.Context, name string) (string, error) {
	return h.e.qualify(ctx, name)
}

func (h flintHost) Table(ctx context.Context, name string) (*catalog.Table, error) {
	stored, err := h.e.qualify(ctx, name)
	if err != nil {
		return nil, err
	}
	t, err := h.e.catalog.Table(stored)
	if err != nil {
		return nil, h.e.suggestTable(ctx, name, err)
	}
	return t, nil
}

func (h flintHost) Database(ctx context.Context, in string) (string, error) {
	return h.e.databaseOf(ctx, in)
}

func (h flintHost) PlanQuery(ctx context.Context, q *sql.Query) (plan.Node, error) {
	return h.e.planQuery(h.e.queryContext(ctx), q)
}

func (h flintHost) Select(ctx context.Context, q *sql.Query) ([]arrow.RecordBatch, error) {
	r, err := h.e.runSelect(ctx, q)
	if err != nil {
		return nil, err
	}
	return r.Batches, nil
}

func (h flintHost) Warn(msg string) {
	if w := h.e.warnFunc(); w != nil {
		w(msg)
	}
}

func (h flintHost) ResolveCheckpoint(ctx context.Context, loc string) (storage.Store, string, error) {
	return h.e.resolveCheckpoint(ctx, loc)
}

func (h flintHost) DropTable(ctx context.Context, t *catalog.Table) error {
	return h.e.forgetTable(ctx, t)
}

// stream is s as internal/streams takes it.
func (flintHost) stream(s flint.Stream) (streams.Write, streams.Spec) {
	spec := streams.Spec{Table: s.Table, Trigger: s.Trigger, Checkpoint: s.Checkpoint, Options: s.Options}
	if s.Wrap != nil {
		spec.Wrap = &streams.SinkWrap{Schema: s.Wrap.Schema, Wrap: s.Wrap.Wrap}
	}
	return streams.Write{Table: s.Table, Query: s.Query, Sink: s.Sink}, spec
}

func (h flintHost) RunStream(ctx context.Context, s flint.Stream) (string, error) {
	w, spec := h.stream(s)
	r, err := h.e.streams().Run(ctx, s.Name, w, spec)
	if err != nil {
		return "", err
	}
	return r.Message, nil
}

func (h flintHost) ExplainStream(ctx context.Context, s flint.Stream) ([]string, error) {
	w, spec := h.stream(s)
	return h.e.streams().ExplainLines(ctx, s.Name, w, spec)
}

func (h flintHost) Launch(ctx context.Context, name string, run func(context.Context) (string, error)) (string, error) {
	r, err := h.e.launch(ctx, name, func(ctx context.Context) (*Result, error) {
		msg, err := run(ctx)
		if err != nil {
			return nil, err
		}
		return &Result{Message: msg}, nil
	}, nil)
	if err != nil {
		return "", err
	}
	return r.Message, nil
}

func (h flintHost) Background() bool               { return h.e.opts.Background != nil }
func (h flintHost) IsRunning(name string) bool     { return h.e.jobs.IsRunning(name) }
func (h flintHost) StopIfRunning(name string) bool { return h.e.jobs.StopIfRunning(name) }

func (h flintHost) LastRun(name string) flint.Run {
	if rs := h.e.jobs.Current(name); rs != nil {
		return flintRun{rs}
	}
	return nil
}

func (h flintHost) StreamStatus(ctx context.Context, name string) (flint.StreamStatus, bool) {
	st, ok := h.e.streams().Status(ctx, name)
	if !ok {
		return flint.StreamStatus{}, false
	}
	return flint.StreamStatus{State: st.State, Epochs: st.Epochs, LastError: st.LastError}, true
}

// flintRun is a run of this process as flint.Run: comparable, the same
// run exactly when rs is.
type flintRun struct{ rs *job.Run }

func (r flintRun) Status() flint.StreamStatus {
	st := r.rs.Snapshot()
	return flint.StreamStatus{State: st.State, Epochs: st.Epochs, LastError: st.LastError}
}
