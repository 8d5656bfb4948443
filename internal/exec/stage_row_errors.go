package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// RowErrorHandler decides about one row that failed in a stage's own
// operators (an overflow in a projection above the event-time column, a
// streaming aggregate's sum): nil drops the row, recorded as a bad row;
// an error fails the epoch. split is the ID of the split the row came
// from, row the failing operator's input row (one row).
type RowErrorHandler func(split string, row arrow.RecordBatch, err error) error

type rowErrorsKey struct{}
type splitKey struct{}

// WithRowErrorHandler makes the stage operators of runs under ctx isolate
// the rows they fail on and hand them to h, instead of failing. A stream
// sets it; a batch query does not, so there one bad value fails the query
// (Spark's ANSI rule).
func WithRowErrorHandler(ctx context.Context, h RowErrorHandler) context.Context {
	return context.WithValue(ctx, rowErrorsKey{}, h)
}

// withSplit marks the batches sent under ctx as split id's, when row
// errors are handled at all (no allocation otherwise).
func withSplit(ctx context.Context, id string) context.Context {
	if _, ok := ctx.Value(rowErrorsKey{}).(RowErrorHandler); !ok {
		return ctx
	}
	return context.WithValue(ctx, splitKey{}, id)
}

// stageRowErrors is the handler for a row of the batch being processed,
// when the driver's stage loop (not a scan worker, whose reader applies
// the table's mode itself) sent it under a handler.
func stageRowErrors(ctx context.Context) (func(row arrow.RecordBatch, err error) error, bool) {
	h, ok := ctx.Value(rowErrorsKey{}).(RowErrorHandler)
	if !ok || h == nil {
		return nil, false
	}
	split, ok := ctx.Value(splitKey{}).(string)
	if !ok {
		return nil, false
	}
	return func(row arrow.RecordBatch, err error) error { return h(split, row, err) }, true
}

// isolateRows is what a stateless operator does when evaluating batch
// failed with a row error under a handler: it evaluates each row alone
// with eval (which must not send anything), hands the rows that fail to
// the handler and returns the batch without them (retained; nil when
// none is left). Only on that error path does a batch cost one
// evaluation per row. ok is false when there is no handler, and the
// caller returns its error as before.
func isolateRows(ctx context.Context, batch arrow.RecordBatch, eval func(context.Context, arrow.RecordBatch) error) (kept arrow.RecordBatch, ok bool, err error) {
	handle, ok := stageRowErrors(ctx)
	if !ok {
		return nil, false, nil
	}
	var bad []int
	n := int(batch.NumRows())
	for i := 0; i < n; i++ {
		row := batch.NewSlice(int64(i), int64(i+1))
		rerr := eval(ctx, row)
		if rerr != nil {
			if !isRowError(rerr) {
				row.Release()
				return nil, true, rerr
			}
			if herr := handle(row, rerr); herr != nil {
				row.Release()
				return nil, true, herr
			}
			bad = append(bad, i)
		}
		row.Release()
	}
	kept, err = withoutRows(ctx, batch, bad)
	return kept, true, err
}

// withoutRows is batch less the given rows (ascending), retained; nil
// when none is left.
func withoutRows(ctx context.Context, batch arrow.RecordBatch, rows []int) (arrow.RecordBatch, error) {
	n := int(batch.NumRows())
	if len(rows) == n {
		return nil, nil
	}
	if len(rows) == 0 {
		batch.Retain()
		return batch, nil
	}
	keep := make([]int32, 0, n-len(rows))
	j := 0
	for i := 0; i < n; i++ {
		if j < len(rows) && rows[j] == i {
			j++
			continue
		}
		keep = append(keep, int32(i))
	}
	return takeRows(ctx, batch, keep)
}
