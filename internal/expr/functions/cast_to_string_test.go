package functions

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// TestCastIntsToString checks the integer fast path of castToString
// against FormatValue, the general path: signs, bounds, NULLs, a slice.
func TestCastIntsToString(t *testing.T) {
	valid := []bool{true, true, false, true, true, true}
	mk := func(b array.Builder) arrow.Array { defer b.Release(); return b.NewArray() }
	i64 := array.NewInt64Builder(memory.DefaultAllocator)
	i64.AppendValues([]int64{0, -7, 3, math.MaxInt64, math.MinInt64, 1234567}, valid)
	i32 := array.NewInt32Builder(memory.DefaultAllocator)
	i32.AppendValues([]int32{0, -7, 3, math.MaxInt32, math.MinInt32, 1234567}, valid)
	i16 := array.NewInt16Builder(memory.DefaultAllocator)
	i16.AppendValues([]int16{0, -7, 3, math.MaxInt16, math.MinInt16, 12345}, valid)
	i8 := array.NewInt8Builder(memory.DefaultAllocator)
	i8.AppendValues([]int8{0, -7, 3, math.MaxInt8, math.MinInt8, 12}, valid)
	for _, a := range []arrow.Array{mk(i64), mk(i32), mk(i16), mk(i8)} {
		for _, in := range []arrow.Array{a, array.NewSlice(a, 2, 6)} {
			got := castToString(in).(*array.String)
			if got.Len() != in.Len() {
				t.Fatalf("%s: %d values, want %d", in.DataType(), got.Len(), in.Len())
			}
			for i := 0; i < in.Len(); i++ {
				if in.IsNull(i) != got.IsNull(i) || !in.IsNull(i) && got.Value(i) != types.FormatValue(in, i) {
					t.Fatalf("%s row %d: got %q, want %q", in.DataType(), i, got.ValueStr(i), types.FormatValue(in, i))
				}
			}
		}
	}
}
