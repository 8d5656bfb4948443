package physical

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/exec"
	"sluice/internal/expr"
	"sluice/internal/plan"
)

// valuesSource evaluates a VALUES list's literal rows into one in-memory
// batch: constant work, not I/O, so it happens while compiling.
func valuesSource(v *plan.Values, now time.Time) (*exec.BatchSource, error) {
	ctx := context.Background()
	if !now.IsZero() {
		ctx = expr.WithNow(ctx, now)
	}
	schema := v.Schema()
	n := len(v.Rows)
	empty := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	cols := make([]arrow.Array, schema.NumFields())
	for j := range cols {
		parts := make([]arrow.Array, n)
		for i, row := range v.Rows {
			a, err := row[j].Eval(ctx, empty)
			if err != nil {
				return nil, fmt.Errorf("evaluating VALUES row %d: %w", i+1, err)
			}
			parts[i] = a
		}
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("building VALUES: %w", err)
		}
		cols[j] = col
	}
	b := array.NewRecordBatch(schema, cols, int64(n))
	return exec.NewBatchSource("values", schema, []arrow.RecordBatch{b}), nil
}
