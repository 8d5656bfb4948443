package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync/atomic"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/engine/sparkstmt"
	"sluice/internal/exec"
	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/stream"
)

// insert runs INSERT INTO t [PARTITION (...)] [(cols)] query: the
// query's columns are matched to the table's by position (or by the
// column list), cast to the table's types, and written through the
// table's sink. INSERT OVERWRITE then replaces what the table (or the
// static partition) held before (sparkstmt/insert_overwrite.go).
func (e *Engine) insert(ctx context.Context, s *sql.Insert) (*Result, error) {
	t, err := e.catalog.Table(s.Table)
	if err != nil {
		return nil, err
	}
	if !registry.CanWrite(t.Spec.Using) {
		return nil, fmt.Errorf("table %s (USING %s) cannot be written", t.Spec.Name, t.Spec.Using)
	}
	ctx = e.queryContext(ctx)
	if s.ByName {
		if s, err = e.spark().ByName(ctx, t, s); err != nil {
			return nil, err
		}
	}
	if s.Overwrite {
		if err := e.spark().CheckOverwritable(ctx, t); err != nil {
			return nil, err
		}
	}
	t, n, sp, err := e.insertPlan(ctx, t, s, false)
	if err != nil {
		return nil, err
	}
	if s.Overwrite {
		if err := e.spark().CheckOverwriteReads(t, n); err != nil {
			return nil, err
		}
	}
	// The query id names the files a file sink writes and, as the write
	// id, the documents of rows without an id: both unique to this INSERT.
	qid := e.newQueryID()
	sink, err := registry.OpenSink(ctx, t.Spec, e.env(ctx), connector.SinkOptions{FilePrefix: qid, WriteID: qid, TempDir: e.tempDir(), Batch: true})
	if err != nil {
		return nil, fmt.Errorf("opening %s for writing: %w", t.Spec.Name, err)
	}
	var rows int64
	if s.Overwrite {
		rows, err = sparkstmt.Overwrite(ctx, t, sink, sp, func(ctx context.Context) (int64, error) { return e.runInto(ctx, n, sink, 0) })
	} else {
		rows, err = e.runInto(ctx, n, sink, 0)
	}
	if cerr := sink.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("closing %s: %w", t.Spec.Name, cerr)
	}
	// A failed write may have written some files too.
	e.spark().ClearStats(t.Spec.Name)
	if err != nil {
		return nil, err
	}
	r := message("%s inserted into %s", stream.Count(rows, "row"), t.Spec.Name)
	if s.Overwrite {
		r = message("%s written over %s", stream.Count(rows, "row"), sparkstmt.OverwriteTarget(t, sp))
	}
	r.Written, r.Wrote = rows, true
	return r, nil
}

// insertPlan binds and optimizes INSERT's query, conformed to the table
// (as it is after evolveTable, which a dry run leaves unchanged), with
// PARTITION's static values added.
func (e *Engine) insertPlan(ctx context.Context, t *catalog.Table, s *sql.Insert, dryRun bool) (*catalog.Table, plan.Node, *sparkstmt.StaticPartition, error) {
	sp, err := e.spark().BindPartition(ctx, t, s)
	if err != nil {
		return nil, nil, nil, err
	}
	n, err := e.bindQuery(ctx, s.Query)
	if err != nil {
		return nil, nil, nil, err
	}
	cols := s.Columns
	if t, n, cols, err = e.evolveTable(t, n, cols, dryRun); err != nil {
		return nil, nil, nil, err
	}
	if sp != nil {
		if n, cols, err = sp.Apply(n, t, cols); err != nil {
			return nil, nil, nil, err
		}
	}
	n, err = plan.ConformToTable(n, t.Spec.Schema, cols, t.Spec.Name)
	if err != nil {
		return nil, nil, nil, err
	}
	if n, err = plan.OptimizeContext(ctx, n); err != nil {
		return nil, nil, nil, err
	}
	return t, n, sp, nil
}

// runInto runs n as one epoch into sink and flushes it.
func (e *Engine) runInto(ctx context.Context, n plan.Node, sink connector.Sink, epoch int64) (int64, error) {
	p, err := physical.Compile(n, e.compileOptions(ctx))
	if err != nil {
		return 0, err
	}
	listed, err := p.Prepare(ctx)
	if err != nil {
		return 0, err
	}
	if b, ok := sink.(connector.EpochBeginner); ok {
		if err := b.BeginEpoch(ctx, epoch); err != nil {
			return 0, fmt.Errorf("starting write: %w", err)
		}
	}
	out := &sinkOutput{sink: sink}
	obs := e.observer(listed.Splits, listed.Bytes)
	var eobs exec.Observer
	if obs != nil {
		eobs = obs
	}
	if err := exec.Run(ctx, p.Root, exec.WatermarkEnd, out, eobs); err != nil {
		return 0, fmt.Errorf("running insert: %w", err)
	}
	if err := sink.Flush(ctx, epoch); err != nil {
		return 0, fmt.Errorf("flushing: %w", err)
	}
	if obs != nil {
		obs.done()
	}
	return out.rows.Load(), nil
}

// sinkOutput writes every batch to a sink.
type sinkOutput struct {
	sink connector.Sink
	rows atomic.Int64
}

func (o *sinkOutput) Send(ctx context.Context, m exec.Message) error {
	if m.IsWatermark() || m.Batch.NumRows() == 0 {
		return nil
	}
	o.rows.Add(m.Batch.NumRows())
	return o.sink.Write(ctx, m.Batch)
}

// newQueryID names one run: unique across processes, so file sinks never
// overwrite another query's files.
func (e *Engine) newQueryID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return e.now().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}
