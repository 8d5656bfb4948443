package docid

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// columnTypes are the key column types the mixed test draws from.
var columnTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64,
	arrow.FixedWidthTypes.Boolean, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
	arrow.FixedWidthTypes.Date32, arrow.BinaryTypes.Binary,
	arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}),
	arrow.ListOf(arrow.BinaryTypes.String),
}

// texts are small on purpose: equal values recur, and so do texts that
// print like structure, NULL or the separators.
var texts = []string{"", "|", `\N`, "NULL", "a", "a, b", "}", "1", `"`}

// appendRandom appends a random value (sometimes NULL) to b.
func appendRandom(r *rand.Rand, b array.Builder) {
	if r.IntN(6) == 0 {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.Int64Builder:
		b.Append(int64(r.IntN(5)) - 2)
	case *array.StringBuilder:
		b.Append(texts[r.IntN(len(texts))])
	case *array.Float64Builder:
		b.Append([]float64{0, 1.5, -1.5, 1e10, 0.001}[r.IntN(5)])
	case *array.BooleanBuilder:
		b.Append(r.IntN(2) == 0)
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(r.IntN(4) * 1_500_000))
	case *array.Date32Builder:
		b.Append(arrow.Date32(r.IntN(4)))
	case *array.BinaryBuilder:
		b.Append([]byte(texts[r.IntN(len(texts))]))
	case *array.StructBuilder:
		b.Append(true)
		for f := 0; f < b.NumField(); f++ {
			appendRandom(r, b.FieldBuilder(f))
		}
	case *array.ListBuilder:
		b.Append(true)
		for n := r.IntN(3); n > 0; n-- {
			appendRandom(r, b.ValueBuilder())
		}
	default:
		panic("no generator for " + b.Type().String())
	}
}

// TestValueKeysInjective builds random schemas of mixed types and random
// rows over them (NULLs, empty strings, separators, texts like NULL),
// and checks that rows with one id hold equal values.
func TestValueKeysInjective(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 25))
	for round := 0; round < 60; round++ {
		width := 1 + r.IntN(3)
		cols := make([]arrow.Array, width)
		const n = 2000
		for c := range cols {
			b := array.NewBuilder(memory.DefaultAllocator, columnTypes[r.IntN(len(columnTypes))])
			for range n {
				appendRandom(r, b)
			}
			cols[c] = b.NewArray()
			b.Release()
		}
		seen := map[string]int{}
		for row := 0; row < n; row++ {
			parts := make([]Part, width)
			for c, col := range cols {
				parts[c] = ValueAt(col, row)
			}
			id := Key(parts)
			prev, ok := seen[id]
			if !ok {
				seen[id] = row
				continue
			}
			for _, col := range cols {
				a, b := types.ValueAt(col, prev), types.ValueAt(col, row)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s: rows %v and %v both give id %q", col.DataType(), a, b, id)
				}
			}
		}
		for _, c := range cols {
			c.Release()
		}
	}
}
