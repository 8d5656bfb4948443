package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"sluice/internal/expr"
)

// Filter keeps the rows where its predicate is TRUE; FALSE and NULL drop
// the row, as WHERE does. It is stateless, so it may run inside scan
// workers (Scan.Local).
type Filter struct {
	Base
	schema *arrow.Schema
	pred   expr.Expr
}

var _ Operator = (*Filter)(nil)

// NewFilter returns a Filter over input rows of the given schema. The
// predicate must be BOOLEAN.
func NewFilter(schema *arrow.Schema, pred expr.Expr) (*Filter, error) {
	if pred.Type().ID() != arrow.BOOL && pred.Type().ID() != arrow.NULL {
		return nil, fmt.Errorf("filter %s: predicate is %s, not BOOLEAN", pred, pred.Type())
	}
	return &Filter{schema: schema, pred: pred}, nil
}

// Schema is the input schema: a filter does not change columns.
func (f *Filter) Schema() *arrow.Schema { return f.schema }

// Predicate returns the filter's condition.
func (f *Filter) Predicate() expr.Expr { return f.pred }

// Process sends the batch's matching rows, and nothing when none match.
func (f *Filter) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	if batch.NumRows() == 0 {
		return nil
	}
	mask, err := f.pred.Eval(ctx, batch)
	if err != nil && isRowError(err) {
		// Under a stream's row error handler the failing rows are bad
		// rows and the others go on (isolateRows).
		kept, ok, ierr := isolateRows(ctx, batch, func(ctx context.Context, row arrow.RecordBatch) error {
			m, err := f.pred.Eval(ctx, row)
			if m != nil {
				m.Release()
			}
			return err
		})
		if ok {
			if ierr != nil || kept == nil {
				return ierr
			}
			defer kept.Release()
			batch = kept
			mask, err = f.pred.Eval(ctx, kept)
		}
	}
	if err != nil {
		return fmt.Errorf("filter %s: %w", f.pred, err)
	}
	defer mask.Release()
	bm, ok := mask.(*array.Boolean)
	if !ok {
		// A NULL-typed predicate (WHERE NULL) keeps nothing.
		return nil
	}
	trues := countTrue(bm)
	switch {
	case trues == 0:
		return nil
	case trues == bm.Len():
		return out.Send(ctx, Message{Batch: batch})
	}
	opts := compute.DefaultFilterOptions()
	res, err := compute.FilterRecordBatch(ctx, batch, bm, opts)
	if err != nil {
		return fmt.Errorf("filter %s: %w", f.pred, err)
	}
	defer res.Release()
	return out.Send(ctx, Message{Batch: res})
}

// countTrue counts elements that are TRUE and not NULL.
func countTrue(b *array.Boolean) int {
	n := 0
	if b.NullN() == 0 {
		for i := 0; i < b.Len(); i++ {
			if b.Value(i) {
				n++
			}
		}
		return n
	}
	for i := 0; i < b.Len(); i++ {
		if b.IsValid(i) && b.Value(i) {
			n++
		}
	}
	return n
}

// String is the EXPLAIN line.
func (f *Filter) String() string { return "Filter " + f.pred.String() }
