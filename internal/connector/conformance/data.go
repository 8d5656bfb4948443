package conformance

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// Scalar kinds and the type the suite uses for each.
var scalarKinds = []struct {
	kind string
	typ  arrow.DataType
}{
	{"BOOLEAN", types.Boolean},
	{"INT", types.Int},
	{"BIGINT", types.BigInt},
	{"DOUBLE", types.Double},
	{"DECIMAL", types.Decimal(12, 3)},
	{"STRING", types.String},
	{"BINARY", arrow.BinaryTypes.Binary},
	{"DATE", types.Date},
	{"TIMESTAMP", types.Timestamp},
}

// scalarType is the suite's type for a scalar kind.
func scalarType(kind string) arrow.DataType {
	for _, s := range scalarKinds {
		if s.kind == kind {
			return s.typ
		}
	}
	panic("conformance: no scalar kind " + kind)
}

func field(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

// allColumns is every column the suite knows, before the connector's
// declared kinds select some: id first, then one per scalar kind, each
// nested kind over every scalar, then nested combinations.
func allColumns() []arrow.Field {
	cols := []arrow.Field{{Name: "id", Type: types.BigInt}}
	var inStruct []arrow.Field
	for _, s := range scalarKinds {
		n := strings.ToLower(s.kind)
		cols = append(cols, field("c_"+n, s.typ))
		inStruct = append(inStruct, field(n, s.typ))
	}
	for _, s := range scalarKinds {
		cols = append(cols, field("a_"+strings.ToLower(s.kind), types.Array(s.typ)))
	}
	for _, s := range scalarKinds {
		cols = append(cols, field("m_"+strings.ToLower(s.kind), types.Map(s.typ)))
	}
	cols = append(cols,
		field("s_all", types.Struct(inStruct...)),
		field("a_struct", types.Array(types.Struct(field("x", types.Int), field("s", types.String)))),
		field("a_array", types.Array(types.Array(types.Int))),
		field("a_map", types.Array(types.Map(types.Timestamp))),
		field("m_array", types.Map(types.Array(types.Double))),
		field("m_struct", types.Map(types.Struct(field("b", types.Boolean), field("x", types.Decimal(12, 3))))),
		field("s_nested", types.Struct(
			field("a", types.Array(types.BigInt)),
			field("m", types.Map(types.String)),
			field("s", types.Struct(field("d", types.Date), field("t", types.Timestamp))),
		)),
	)
	return cols
}

// kinds lists the kinds in t, outermost first.
func kinds(t arrow.DataType) []string {
	switch tt := t.(type) {
	case *arrow.ListType:
		return append([]string{"ARRAY"}, kinds(tt.Elem())...)
	case *arrow.MapType:
		return append([]string{"MAP"}, kinds(tt.ItemType())...)
	case *arrow.StructType:
		out := []string{"STRUCT"}
		for _, f := range tt.Fields() {
			out = append(out, kinds(f.Type)...)
		}
		return out
	case *arrow.Decimal128Type:
		return []string{"DECIMAL"}
	}
	return []string{types.SQLName(t)}
}

// tableSchema is the suite's table for a connector: the columns whose
// kinds it declares, minus its declared limits.
func tableSchema(declared []string, limits map[string]string) *arrow.Schema {
	ok := map[string]bool{"BIGINT": true} // the id column
	for _, k := range declared {
		ok[strings.ToUpper(k)] = true
	}
	var out []arrow.Field
	for _, f := range allColumns() {
		keep := true
		for _, k := range kinds(f.Type) {
			keep = keep && ok[k]
		}
		if _, limited := limits[types.SQLName(f.Type)]; limited {
			keep = false
		}
		if keep {
			out = append(out, f)
		}
	}
	return arrow.NewSchema(out, nil)
}

// Edge values of each scalar kind, in Lit's Go forms; the generator
// cycles through them, so every one is written.
var edges = map[string][]any{
	"BOOLEAN": {true, false},
	"INT":     {int32(0), int32(-1), int32(math.MaxInt32), int32(math.MinInt32), int32(42), int32(7)},
	// Beyond 2^53: a JSON reader that goes through float64 loses them.
	"BIGINT":  {int64(0), int64(math.MaxInt64), int64(math.MinInt64), int64(1)<<53 + 1, int64(-12345), int64(99)},
	"DOUBLE":  {0.0, -1.5, 0.1, 1e300, -2.5e-300, 3.0, 123456789.125},
	"DECIMAL": {"0.000", "-1.250", "999999999.999", "-999999999.999", "12.500", "0.001"},
	// Quotes, separators, new lines, a string spelled NULL and the
	// empty string: each is a case some file format gets wrong.
	"STRING": {"", "plain", `a,b "c"` + "\nd", "NULL", "héllo ✓ 日本", " spaced ", "\\back\tslash"},
	"BINARY": {[]byte{}, []byte{0, 1, 2, 0xff}, []byte("text"), []byte{0xde, 0xad, 0xbe, 0xef}},
	"DATE":   {"1970-01-01", "2024-02-29", "1900-03-01", "9999-12-31", "2026-11-28"},
	"TIMESTAMP": {
		time.Date(2026, 11, 28, 22, 0, 0, 123456000, time.UTC), time.Unix(0, 0).UTC(),
		time.Date(1969, 12, 31, 23, 59, 59, 999999000, time.UTC), time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2262, 4, 11, 23, 47, 16, 1000, time.UTC),
	},
}

// value is the Go value of type t for a seed; nullable values are NULL
// every sixth seed, so NULLs appear at every level of nested types, and
// lists and maps have lengths 0 to 3.
func value(t arrow.DataType, seed int, nullable bool) any {
	if nullable && seed%6 == 5 {
		return nil
	}
	switch tt := t.(type) {
	case *arrow.ListType:
		var out []any
		for k := 0; k < seed%4; k++ {
			out = append(out, value(tt.Elem(), seed*3+k+1, true))
		}
		if out == nil {
			out = []any{}
		}
		return out
	case *arrow.MapType:
		out := map[string]any{}
		for k := 0; k < seed%3+seed%2; k++ {
			out[fmt.Sprintf("k%d", (seed+k)%5)] = value(tt.ItemType(), seed*5+k+2, true)
		}
		return out
	case *arrow.StructType:
		sv := types.StructValue{}
		for j, f := range tt.Fields() {
			sv.Names = append(sv.Names, f.Name)
			sv.Values = append(sv.Values, value(f.Type, seed+j+1, true))
		}
		return sv
	}
	vs := edges[kinds(t)[0]]
	return vs[seed%len(vs)]
}

// Rows of the suite's table: id i, then every column's value for row i.
func batch(schema *arrow.Schema, from, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := from; i < from+n; i++ {
		for c, f := range schema.Fields() {
			var v any = int64(i)
			if c > 0 {
				v = value(f.Type, i*7+c, true)
			}
			if err := functions.AppendValue(b.Field(c), v); err != nil {
				panic(fmt.Sprintf("conformance: column %s row %d: %v", f.Name, i, err))
			}
		}
	}
	return b.NewRecordBatch()
}
