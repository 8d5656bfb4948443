package cli

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// stringResult is a result of STRING columns, for the listings the meta
// commands assemble from several statements.
func stringResult(cols []string, rows [][]string) *engine.Result {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fs[i] = arrow.Field{Name: c, Type: types.String, Nullable: true}
	}
	schema := arrow.NewSchema(fs, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		for i, v := range r {
			b.Field(i).(*array.StringBuilder).Append(v)
		}
	}
	return &engine.Result{Schema: schema, Batches: []arrow.RecordBatch{b.NewRecordBatch()}}
}

// resultColumn is the text of column name in every row of r (NULL as
// ""), nil when r has no such column.
func resultColumn(r *engine.Result, name string) []string {
	if r == nil || r.Schema == nil {
		return nil
	}
	j := -1
	for i, f := range r.Schema.Fields() {
		if strings.EqualFold(f.Name, name) {
			j = i
			break
		}
	}
	if j < 0 {
		return nil
	}
	var out []string
	for _, b := range r.Batches {
		if b == nil || int(b.NumCols()) <= j {
			continue
		}
		for i := 0; i < int(b.NumRows()); i++ {
			s, _ := types.Text(b.Column(j), i)
			out = append(out, s)
		}
	}
	return out
}
