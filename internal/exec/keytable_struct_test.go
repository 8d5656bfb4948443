package exec

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestKeyEncoderStructMatchesRows: a struct key (a window) encodes column
// by column exactly as appendValue encodes each row, sliced or not, with
// NULL fields and with NULL structs.
func TestKeyEncoderStructMatchesRows(t *testing.T) {
	typ := arrow.StructOf(
		arrow.Field{Name: "start", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		arrow.Field{Name: "end", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		arrow.Field{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	for _, nullStruct := range []bool{false, true} {
		b := array.NewStructBuilder(memory.DefaultAllocator, typ)
		for i := 0; i < 9; i++ {
			if nullStruct && i == 4 {
				b.AppendNull()
				continue
			}
			b.Append(true)
			st, en, f := b.FieldBuilder(0).(*array.TimestampBuilder), b.FieldBuilder(1).(*array.TimestampBuilder), b.FieldBuilder(2).(*array.Float64Builder)
			st.Append(arrow.Timestamp(60_000_000 * (i / 3)))
			if i == 7 {
				en.AppendNull()
			} else {
				en.Append(arrow.Timestamp(60_000_000 * (i/3 + 1)))
			}
			f.Append(float64(i % 2))
		}
		whole := b.NewArray()
		for _, a := range []arrow.Array{whole, array.NewSlice(whole, 2, 8)} {
			var e keyEncoder
			got := e.encode([]arrow.Array{a}, a.Len())
			for i := 0; i < a.Len(); i++ {
				if want := appendValue(nil, a, i); !bytes.Equal(got[i], want) {
					t.Fatalf("null struct %v, len %d, row %d: encoded %x, appendValue %x", nullStruct, a.Len(), i, got[i], want)
				}
			}
		}
	}
}
