package exec

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
)

// TestHashAggregateSpillAnyOrder checks that a spilling aggregate told
// its order does not matter (EmitInAnyOrder) yields the in-memory groups,
// each once, in some order: over string keys with NULLs (gathered per
// partition) and without (split in one pass), and a non-string key.
func TestHashAggregateSpillAnyOrder(t *testing.T) {
	s := expr.Col(1, "s", arrow.BinaryTypes.String)
	k := expr.Col(0, "k", arrow.PrimitiveTypes.Int64)
	for _, tc := range []struct {
		name string
		in   []arrow.RecordBatch
		keys []expr.Expr
	}{
		{"string key with NULLs", spillInput(t, 40000, 20000), []expr.Expr{s}},
		{"string key without NULLs", distinctStrings(40000), []expr.Expr{s}},
		{"int and string keys", spillInput(t, 40000, 20000), []expr.Expr{k, s}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names := make([]string, len(tc.keys))
			for i := range names {
				names[i] = fmt.Sprintf("g%d", i)
			}
			mk := func() *HashAggregate {
				h, err := NewHashAggregate(tc.keys, names, spillAggs(t))
				if err != nil {
					t.Fatal(err)
				}
				return h
			}
			want := runOps(t, tc.in, mk())
			h := mk()
			h.EmitInAnyOrder()
			b, dir := tinyBudget(t)
			h.SetMemoryBudget(b)
			got := runOps(t, tc.in, h)
			slices.Sort(got)
			slices.Sort(want)
			eqRows(t, got, want)
			checkSpilled(t, b, dir)
		})
	}
}

// distinctStrings is spillInput's shape without NULLs: k, s (mostly
// distinct, some repeated), v.
func distinctStrings(rows int) []arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	var out []arrow.RecordBatch
	for done := 0; done < rows; done += 1000 {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := done; i < done+1000; i++ {
			rb.Field(0).(*array.Int64Builder).Append(int64(i % 50))
			rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("key-%d", i*7%(rows-rows/10)))
			rb.Field(2).(*array.Int64Builder).Append(int64(i))
		}
		out = append(out, rb.NewRecordBatch())
		rb.Release()
	}
	return out
}
