package format

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// refRow is a row encoded value by value through appendJSONValue, the
// encoding JSONRows must reproduce byte for byte (OpenSearch ids hash it).
func refRow(b []byte, batch arrow.RecordBatch, row int) []byte {
	b = append(b, '{')
	first := true
	for c, col := range batch.Columns() {
		if types.IsNull(col, row) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, batch.Schema().Field(c).Name)
		b = append(b, ':')
		b = appendJSONValue(b, col, row)
	}
	return append(b, '}')
}

func checkRows(t *testing.T, batch arrow.RecordBatch) {
	t.Helper()
	var r JSONRows
	r.Bind(batch)
	for row := 0; row < int(batch.NumRows()); row++ {
		got, want := r.AppendRow(nil, row), refRow(nil, batch, row)
		if string(got) != string(want) {
			t.Fatalf("row %d:\n got %s\nwant %s", row, got, want)
		}
	}
}

func TestJSONRowsAsValues(t *testing.T) {
	batch := sampleBatch(t, sampleSchema(true), 60)
	defer batch.Release()
	checkRows(t, batch)
	sliced := batch.NewSlice(5, 41)
	defer sliced.Release()
	checkRows(t, sliced)
}

// TestJSONRowsNulls covers what sampleBatch does not: Arrow's Null type,
// NULL list elements and NULL structs, in a slice with an odd offset.
func TestJSONRowsNulls(t *testing.T) {
	schema := schemaOf(fld("n", arrow.Null), fld("tags", types.Array(types.BigInt)),
		fld("geo", types.Struct(fld("c", types.String))), fld("ok", types.Boolean))
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for r := 0; r < 40; r++ {
		rb.Field(0).AppendNull()
		lb := rb.Field(1).(*array.ListBuilder)
		if r%5 == 0 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for k := 0; k < r%4; k++ {
				if (r+k)%3 == 0 {
					lb.ValueBuilder().AppendNull()
				} else {
					lb.ValueBuilder().(*array.Int64Builder).Append(int64(r * k))
				}
			}
		}
		sb := rb.Field(2).(*array.StructBuilder)
		if r%4 == 1 {
			sb.AppendNull()
			sb.FieldBuilder(0).AppendNull()
		} else {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append("x")
		}
		rb.Field(3).(*array.BooleanBuilder).Append(r%2 == 0)
	}
	batch := rb.NewRecordBatch()
	defer batch.Release()
	checkRows(t, batch)
	sliced := batch.NewSlice(3, 37)
	defer sliced.Release()
	checkRows(t, sliced)
}

// TestAppendISOMicros checks the timestamp shortcut against time's
// RFC 3339 formatting, around the epoch, whole seconds and the years
// outside 0-9999 that time writes itself.
func TestAppendISOMicros(t *testing.T) {
	vals := []int64{0, -1, 1, 999999, -1000000, 1000000, 1764477416000000, 1764477416123000,
		-62135596800000000, -62135596800000001, 253402300799999999, 253402300800000000,
		-62167219200000000, -62167219200000001, 951782400000000, 4107542400000000}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		v := rng.Int64N(600000000000000000) - 300000000000000000
		if i%2 == 0 {
			v = v / 1000000 * 1000000
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		if got, want := string(appendISOMicros(nil, v)), string(formatTimestampISO(nil, v)); got != want {
			t.Fatalf("%d: got %s, want %s", v, got, want)
		}
	}
}
