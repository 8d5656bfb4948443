package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/expr/functions"
)

// isRowError reports an error that one row's values caused (an
// arithmetic overflow, a division by zero, a value CAST cannot convert),
// as opposed to one of the query or the input.
func isRowError(err error) bool {
	var ae *functions.ArithError
	var ce *functions.CastError
	return errors.As(err, &ae) || errors.As(err, &ce)
}

// sendRowByRow sends a batch that failed in the scan's own operators
// again, one row at a time, so that only the rows that fail are bad rows:
// the reader applies the table's mode to each (FAILFAST fails, the
// others record and drop it). Nothing of the batch reached the consumers
// the first time (the scan's operators are stateless and emit a batch
// whole), so no row is sent twice. first is the batch's first row's
// ordinal in the split.
func sendRowByRow(ctx context.Context, entry Output, b arrow.RecordBatch, first int64, rep connector.RowErrorReporter, emitErr *error) error {
	for i := int64(0); i < b.NumRows(); i++ {
		row := b.NewSlice(i, i+1)
		err := entry.Send(ctx, Message{Batch: row})
		row.Release()
		switch {
		case err == nil:
		case *emitErr != nil || !isRowError(err):
			return err
		default:
			if err := rep.ReportRowError(first+i, err); err != nil {
				return err
			}
		}
	}
	return nil
}
