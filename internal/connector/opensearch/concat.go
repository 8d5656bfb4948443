package opensearch

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// concat joins batches of one schema into one, releasing the inputs.
func concat(schema *arrow.Schema, batches []arrow.RecordBatch) (arrow.RecordBatch, error) {
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	cols := make([]arrow.Array, schema.NumFields())
	var rows int64
	for _, b := range batches {
		rows += b.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(batches))
		for j, b := range batches {
			parts[j] = b.Column(i)
		}
		c, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		cols[i] = c
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}
