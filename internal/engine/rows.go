package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/physical"
	"sluice/internal/sql"
)

// Rows is a SELECT's result read while the query runs, for a caller that
// pages through it (the server's cursors) instead of holding it whole.
// The query runs in a goroutine of its own and blocks once buffer
// batches wait unread, so memory stays bounded by the buffer (plus what
// the operators hold) however large the result. Next and Close may be
// called from different goroutines, one call at a time.
type Rows struct {
	schema *arrow.Schema
	ch     chan arrow.RecordBatch
	cancel context.CancelFunc
	done   chan struct{} // closed when the query returned; err is set then
	err    error
	once   sync.Once
}

// OpenRows starts st when it is a SELECT and returns its rows as they are
// produced; ok is false (and nothing runs) for any other statement, which
// the caller runs with ExecuteStatement. The query runs under a context
// of its own that keeps ctx's values but not its cancellation, so it
// outlives the request that opened it: Close ends it. buffer is how many
// batches may wait unread (at least 1).
func (e *Engine) OpenRows(ctx context.Context, st sql.Statement, buffer int) (rows *Rows, ok bool, err error) {
	// A PPL query becomes the SQL it means first, as dispatch does.
	if st, err = e.expandPPL(ctx, st); err != nil {
		return nil, true, sql.RedactError(err)
	}
	st, err = e.qualifyStatement(ctx, st)
	if err != nil {
		return nil, true, sql.RedactError(err)
	}
	sel, isSelect := st.(*sql.SelectStmt)
	if !isSelect {
		return nil, false, nil
	}
	qctx, cancel := context.WithCancel(e.queryContext(context.WithoutCancel(ctx)))
	qctx = connector.WithWarn(qctx, e.warnFunc())
	n, err := e.planQuery(qctx, sel.Query)
	if err != nil {
		cancel()
		return nil, true, sql.RedactError(err)
	}
	opts := e.compileOptions(qctx)
	p, err := physical.Compile(n, opts)
	if err != nil {
		cancel()
		return nil, true, sql.RedactError(err)
	}
	listed, err := p.Prepare(qctx)
	if err != nil {
		cancel()
		return nil, true, sql.RedactError(err)
	}
	obs := e.observer(listed.Splits, listed.Bytes)
	var eobs exec.Observer
	if obs != nil {
		eobs = obs
	}
	r := &Rows{schema: n.Schema(), ch: make(chan arrow.RecordBatch, max(buffer, 1)), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		defer close(r.ch)
		defer func() { e.spills.Add(opts.Memory.Spills()) }()
		out := exec.OutputFunc(func(ctx context.Context, m exec.Message) error {
			if m.IsWatermark() || m.Batch.NumRows() == 0 {
				return nil
			}
			m.Batch.Retain()
			select {
			case r.ch <- m.Batch:
				return nil
			case <-ctx.Done():
				m.Batch.Release()
				return ctx.Err()
			}
		})
		if err := exec.Run(qctx, p.Root, exec.WatermarkEnd, out, eobs); err != nil {
			r.err = sql.RedactError(fmt.Errorf("running query: %w", err))
		} else if obs != nil {
			obs.done()
		}
	}()
	return r, true, nil
}

// Schema is the result's schema.
func (r *Rows) Schema() *arrow.Schema { return r.schema }

// Next returns the next batch, the caller's to Release; io.EOF after the
// last. It waits for the query, or until ctx is done (the query goes on).
func (r *Rows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	select {
	case b, ok := <-r.ch:
		if ok {
			return b, nil
		}
		<-r.done
		if r.err != nil && !errors.Is(r.err, context.Canceled) {
			return nil, r.err
		}
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close stops the query and releases the batches still buffered; it
// returns once the query has ended. Calling it again does nothing.
func (r *Rows) Close() {
	r.once.Do(func() {
		r.cancel()
		for b := range r.ch {
			b.Release()
		}
		<-r.done
	})
}
