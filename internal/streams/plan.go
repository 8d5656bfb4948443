package streams

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/exec"
	"sluice/internal/job"
	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

// plannedStream is a stream's query planned and compiled, before
// anything is opened: what EXPLAIN prints and Run runs.
type plannedStream struct {
	qctx     context.Context
	trig     stream.Trigger
	lockTTL  time.Duration
	table    *catalog.Table
	sinkSpec connector.TableSpec
	logical  plan.Node
	sp       *physical.StreamPlan
	// groupIDs: the sink's id options name groups (docid's group keys).
	groupIDs bool
}

// planStream binds, optimizes and compiles the stream's query (its
// sink's schema evolved when the sink is a table that may grow, unless
// dryRun) and finds its streaming input; it opens no sink, checkpoint
// or connection.
func (m *Streams) planStream(ctx context.Context, name string, s Write, spec Spec, dryRun bool) (*plannedStream, error) {
	trig, err := stream.ParseTrigger(spec.Trigger)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	}
	var lockTTL time.Duration
	if v := spec.Options["lock_ttl"]; v != "" {
		tt, err := stream.ParseTrigger(v)
		if err != nil || tt.Interval <= 0 {
			return nil, usererr.Errorf(usererr.Invalid, "stream %s: lock_ttl %q: want an interval like '5 seconds'", name, v)
		}
		lockTTL = tt.Interval
	}
	t := s.Sink
	if t == nil {
		if t, err = m.h.Catalog().Table(s.Table); err != nil {
			return nil, err
		}
	}
	if !registry.CanWrite(t.Spec.Using) {
		return nil, fmt.Errorf("table %s (USING %s) cannot be written", t.Spec.Name, t.Spec.Using)
	}
	qctx := m.h.QueryContext(ctx)
	res := TableOptions{Overrides: sourceOverrides(spec.Options)}
	if d, ok, err := job.IntervalOf(spec.Options, "watermark_delay"); err != nil {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	} else if ok {
		res.WatermarkDelay = &d
		res.EventTimeColumn = sql.WindowTimeColumn(s.Query)
	}
	binder := plan.NewBinder(qctx, m.h.Tables(res))
	binder.Streaming = true
	n, err := binder.BindQuery(s.Query)
	if err != nil {
		return nil, err
	}
	if err := m.checkSelfRead(name, n, t.Spec); err != nil {
		return nil, err
	}
	cols := s.Columns
	target := t.Spec.Schema
	if spec.Wrap != nil {
		target = spec.Wrap.Schema
	} else if t, n, cols, err = m.h.EvolveTable(t, n, cols, dryRun); err != nil {
		return nil, err
	} else {
		target = t.Spec.Schema
	}
	if n, err = plan.ConformToTable(n, target, cols, t.Spec.Name); err != nil {
		return nil, err
	}
	sinkSpec, err := keyedSinkSpec(name, spec.Options, t.Spec, n)
	if err != nil {
		return nil, err
	}
	groupIDs := idsNameGroups(sinkSpec, n) // on the plan as bound, as keyedSinkSpec reads it
	if n, err = plan.OptimizeContext(qctx, n); err != nil {
		return nil, err
	}
	copts := m.h.CompileOptions(qctx)
	switch spec.Options["output_mode"] {
	case "update":
		copts.OutputMode = exec.Update
	case "complete":
		copts.OutputMode = exec.Complete
	}
	sp, err := physical.CompileStream(n, copts)
	if errors.Is(err, physical.ErrNoStreamingInput) || errors.Is(err, physical.ErrNotStreamable) {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	} else if err != nil {
		return nil, err
	}
	return &plannedStream{qctx: qctx, trig: trig, lockTTL: lockTTL, table: t, sinkSpec: sinkSpec, logical: n, sp: sp, groupIDs: groupIDs}, nil
}

// sourceOverrides are the stream's options its source takes over the
// table's (max_files_per_trigger and the like): what planStream reads the
// source with, and STOP STREAM opens it with for its stop signal.
func sourceOverrides(opts map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range opts {
		if registry.IsStreamOption(k) {
			out[k] = v
		}
	}
	return out
}
