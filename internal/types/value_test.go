package types

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestFormatDouble(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{1.5, "1.5"}, {2, "2.0"}, {-2, "-2.0"}, {0, "0.0"}, {1e10, "1.0E10"}, {1.5e-5, "1.5E-5"},
		{1234567, "1234567.0"}, {12345678, "1.2345678E7"}, {0.001, "0.001"}, {0.30000000000000004, "0.30000000000000004"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	}
	for _, tc := range tests {
		if got := FormatDouble(tc.in); got != tc.want {
			t.Errorf("FormatDouble(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatAndValue(t *testing.T) {
	mem := memory.DefaultAllocator
	build := func(typ arrow.DataType, fill func(b array.Builder)) arrow.Array {
		b := array.NewBuilder(mem, typ)
		defer b.Release()
		fill(b)
		return b.NewArray()
	}
	ts := time.Date(2024, 1, 31, 10, 0, 0, 123456000, time.UTC)
	geo := Struct(arrow.Field{Name: "city", Type: String}, arrow.Field{Name: "zip", Type: Int})
	tests := []struct {
		name string
		arr  arrow.Array
		str  []string
		val  []any
	}{
		{"bool", build(Boolean, func(b array.Builder) {
			b.(*array.BooleanBuilder).AppendValues([]bool{true, false}, nil)
			b.AppendNull()
		}),
			[]string{"true", "false", "NULL"}, []any{true, false, nil}},
		{"int", build(Int, func(b array.Builder) { b.(*array.Int32Builder).Append(-7) }), []string{"-7"}, []any{int64(-7)}},
		{"double", build(Double, func(b array.Builder) { b.(*array.Float64Builder).AppendValues([]float64{2, 1e10}, nil) }),
			[]string{"2.0", "1.0E10"}, []any{2.0, 1e10}},
		{"decimal", build(Decimal(5, 2), func(b array.Builder) { b.(*array.Decimal128Builder).Append(decimal128.FromI64(1250)) }),
			[]string{"12.50"}, []any{"12.50"}},
		{"date", build(Date, func(b array.Builder) { b.(*array.Date32Builder).Append(arrow.Date32(19753)) }),
			[]string{"2024-01-31"}, []any{"2024-01-31"}},
		{"timestamp", build(Timestamp, func(b array.Builder) { b.(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMicro())) }),
			[]string{"2024-01-31 10:00:00.123456"}, []any{ts}},
		{"array", build(Array(String), func(b array.Builder) {
			lb := b.(*array.ListBuilder)
			lb.Append(true)
			vb := lb.ValueBuilder().(*array.StringBuilder)
			vb.Append("a")
			vb.AppendNull()
			lb.Append(true)
		}), []string{"[a, NULL]", "[]"}, []any{[]any{"a", nil}, []any{}}},
		{"map", build(Map(BigInt), func(b array.Builder) {
			mb := b.(*array.MapBuilder)
			mb.Append(true)
			mb.KeyBuilder().(*array.StringBuilder).Append("k")
			mb.ItemBuilder().(*array.Int64Builder).Append(1)
		}), []string{"{k -> 1}"}, []any{map[string]any{"k": int64(1)}}},
		{"struct", build(geo, func(b array.Builder) {
			sb := b.(*array.StructBuilder)
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append("Paris")
			sb.FieldBuilder(1).(*array.Int32Builder).Append(75001)
		}), []string{"{city: Paris, zip: 75001}"}, []any{StructValue{Names: []string{"city", "zip"}, Values: []any{"Paris", int64(75001)}}}},
	}
	for _, tc := range tests {
		for i := range tc.str {
			if got := FormatValue(tc.arr, i); got != tc.str[i] {
				t.Errorf("%s: FormatValue(%d) = %q, want %q", tc.name, i, got, tc.str[i])
			}
			if got := ValueAt(tc.arr, i); !reflect.DeepEqual(got, tc.val[i]) {
				t.Errorf("%s: ValueAt(%d) = %#v, want %#v", tc.name, i, got, tc.val[i])
			}
		}
		tc.arr.Release()
	}
}
