package exec

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
)

// A streaming aggregate's sum that overflows on one row makes that row a
// bad row: the row is dropped from every aggregate of the batch and goes
// to the stream's row error handler (dead letter and count, or an error
// under FAILFAST), and its group goes on with the sum it had. Spark fails
// the query instead (a sum's overflow is the group's error in ANSI
// mode); a stream that runs for months should not stop, or lose a
// group's whole result, over one bad value, and dropping the row is what
// the stream's mode already does for a row that fails in a projection.

// update folds the batch's rows into the accumulators, the fallible
// ones (functions.Retractable) first: when one of them fails on some
// rows, the ones before it are taken back and no other has seen the
// batch, so nothing of it stays.
func (h *HashAggregate) update(ctx context.Context, batch arrow.RecordBatch, ids []uint32) error {
	var done []int
	for pass := 0; pass < 2; pass++ {
		for i, a := range h.aggs {
			r, ok := h.accs[i].(functions.Retractable)
			if fallible := ok && r.Fallible(); fallible != (pass == 0) {
				continue
			}
			args, err := evalAll(ctx, a.Args, batch)
			if err != nil {
				return fmt.Errorf("hash aggregate: %s: %w", a, err)
			}
			err = h.accs[i].Update(ids, args)
			releaseAll(args)
			if err != nil {
				var re *functions.RowErrors
				if errors.As(err, &re) && pass == 0 {
					for _, e := range re.Errs {
						e.Expr = a.String()
					}
					if rerr := h.retract(ctx, batch, ids, done); rerr != nil {
						return rerr
					}
				}
				return fmt.Errorf("hash aggregate: %s: %w", a, err)
			}
			if pass == 0 {
				done = append(done, i)
			}
		}
	}
	return nil
}

// retract takes back the batch from the fallible accumulators done.
func (h *HashAggregate) retract(ctx context.Context, batch arrow.RecordBatch, ids []uint32, done []int) error {
	for _, i := range done {
		args, err := evalAll(ctx, h.aggs[i].Args, batch)
		if err != nil {
			return fmt.Errorf("hash aggregate: %s: %w", h.aggs[i], err)
		}
		h.accs[i].(functions.Retractable).Retract(ids, args)
		releaseAll(args)
	}
	return nil
}

// keptChunks is how many chunks of key values each key column holds.
func (h *HashAggregate) keptChunks() int {
	if len(h.keys) == 0 {
		return 0
	}
	return len(h.keys[0])
}

// dropBadRows handles an update that failed: under a stream's row error
// handler with the failing rows known (functions.RowErrors, and the
// update changed nothing), the groups the batch added are forgotten, the
// rows go to the handler, and the rest of the batch is folded in again.
// Otherwise err fails the query, as it always did.
func (h *HashAggregate) dropBadRows(ctx context.Context, batch arrow.RecordBatch, pos Pos, err error, keyCols []arrow.Array, before, kept int) error {
	var re *functions.RowErrors
	handle, ok := stageRowErrors(ctx)
	if !ok || !errors.As(err, &re) {
		return err
	}
	n := int(batch.NumRows())
	h.table.forget(keyCols, n, h.fresh, before)
	for c := range h.keys {
		for _, a := range h.keys[c][kept:] {
			a.Release()
		}
		h.keys[c] = h.keys[c][:kept]
	}
	for _, acc := range h.accs {
		if r, ok := acc.(functions.Retractable); ok && r.Fallible() {
			r.Truncate(before)
		}
	}
	for k, i := range re.Rows {
		row := batch.NewSlice(int64(i), int64(i+1))
		herr := handle(row, re.Errs[k])
		row.Release()
		if herr != nil {
			return herr
		}
	}
	rest, err := withoutRows(ctx, batch, re.Rows)
	if err != nil || rest == nil {
		return err
	}
	defer rest.Release()
	return h.process(ctx, rest, pos)
}
