package server

import (
	"encoding/json"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// result is one statement's rows, as the SQL endpoints page and format
// them. A statement that only has a message ("table t created") is one
// row of one keyword column named message.
type result struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	total   int
}

func newResult(r *engine.Result) *result {
	if r.Schema == nil {
		return messageResult(r.Message)
	}
	n := 0
	for _, b := range r.Batches {
		if b != nil {
			n += int(b.NumRows())
		}
	}
	return &result{schema: r.Schema, batches: r.Batches, total: n}
}

func messageResult(msg string) *result {
	schema := arrow.NewSchema([]arrow.Field{{Name: "message", Type: arrow.BinaryTypes.String}}, nil)
	return &result{schema: schema, batches: []arrow.RecordBatch{stringBatch(schema, msg)}, total: 1}
}

// each calls fn for rows from..to-1 of the result, in order.
func (r *result) each(from, to int, fn func(b arrow.RecordBatch, i int)) {
	at := 0
	for _, b := range r.batches {
		if b == nil {
			continue
		}
		n := int(b.NumRows())
		if at+n <= from {
			at += n
			continue
		}
		for i := max(from-at, 0); i < n && at+i < to; i++ {
			fn(b, i)
		}
		at += n
		if at >= to {
			return
		}
	}
}

// jsonCell is row i of column c as the plugin's JSON formats show it:
// numbers, booleans and strings as themselves, timestamps and dates as
// "2026-11-30 12:00:00" text (the plugin's JDBC style), structs and maps
// as objects, lists as arrays, NULL null.
func jsonCell(c arrow.Array, i int) json.RawMessage {
	if types.IsTemporal(c.DataType()) && !c.IsNull(i) {
		s, _ := types.Text(c, i)
		b, _ := json.Marshal(s)
		return b
	}
	return types.AppendJSON(nil, c, i)
}

// textCell is row i of column c for the CSV and raw formats: NULL is the
// empty string, as the plugin writes it.
func textCell(c arrow.Array, i int) string {
	s, ok := types.Text(c, i)
	if !ok {
		return ""
	}
	return s
}

// openSearchType names a column type as the plugin's JDBC format does
// (its legacy type names: keyword for strings, object for structs,
// nested for arrays); legacy false gives the names of format=json
// (string, struct, array).
func openSearchType(t arrow.DataType, legacy bool) string {
	switch tt := t.(type) {
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		if legacy {
			return "keyword"
		}
		return "string"
	case *arrow.BooleanType:
		return "boolean"
	case *arrow.Int8Type, *arrow.Uint8Type:
		return "byte"
	case *arrow.Int16Type, *arrow.Uint16Type:
		return "short"
	case *arrow.Int32Type:
		return "integer"
	case *arrow.Int64Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return "long"
	case *arrow.Float16Type, *arrow.Float32Type:
		return "float"
	case *arrow.Float64Type, *arrow.Decimal128Type, *arrow.Decimal256Type:
		return "double"
	case *arrow.Date32Type, *arrow.Date64Type:
		return "date"
	case *arrow.TimestampType:
		return "timestamp"
	case *arrow.Time32Type, *arrow.Time64Type:
		return "time"
	case *arrow.MonthDayNanoIntervalType, *arrow.DurationType:
		return "interval"
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return "binary"
	case *arrow.StructType, *arrow.MapType:
		if legacy {
			return "object"
		}
		return "struct"
	case *arrow.ListType, *arrow.LargeListType, *arrow.FixedSizeListType:
		if legacy {
			return "nested"
		}
		return "array"
	case *arrow.DictionaryType:
		return openSearchType(tt.ValueType, legacy)
	case *arrow.NullType:
		return "undefined"
	}
	return "unknown"
}

func stringBatch(schema *arrow.Schema, v string) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append(v)
	return b.NewRecordBatch()
}
