package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/engine/sparkstmt"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// StringRows is stringRows for callers outside the engine (the shell's
// meta commands assemble listings from several statements' answers).
func StringRows(cols []string, rows [][]string) *Result { return stringRows(cols, rows) }

// stringRows builds a result of STRING columns: what SHOW, DESCRIBE and
// EXPLAIN print. Every cell is redacted (sql.RedactText): they show
// options, locations, statements and errors, never data.
func stringRows(cols []string, rows [][]string) *Result {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fs[i] = arrow.Field{Name: c, Type: types.String, Nullable: true}
	}
	schema := arrow.NewSchema(fs, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		for i, v := range r {
			if v == sparkstmt.NullCell {
				b.Field(i).AppendNull()
				continue
			}
			b.Field(i).(*array.StringBuilder).Append(sql.RedactText(v))
		}
	}
	rec := b.NewRecordBatch()
	return &Result{Schema: schema, Batches: []arrow.RecordBatch{rec}}
}
