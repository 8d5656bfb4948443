package types

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestTextAndJSON(t *testing.T) {
	mem := memory.DefaultAllocator
	build := func(dt arrow.DataType, fill func(array.Builder)) arrow.Array {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		fill(b)
		a := b.NewArray()
		t.Cleanup(a.Release)
		return a
	}
	tests := []struct {
		name       string
		arr        arrow.Array
		text, json string
	}{
		{"decimal", build(Decimal(10, 2), func(b array.Builder) {
			b.(*array.Decimal128Builder).Append(decimal128.FromI64(-1250))
		}), "-12.50", "-12.50"},
		{"date", build(Date, func(b array.Builder) { b.(*array.Date32Builder).Append(20787) }), "2026-11-30", `"2026-11-30"`},
		{"timestamp ms", build(&arrow.TimestampType{Unit: arrow.Millisecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(1796040000123)
		}), "2026-11-30 12:00:00.123", `"2026-11-30T12:00:00.123Z"`},
		{"interval", build(Interval, func(b array.Builder) {
			b.(*array.MonthDayNanoIntervalBuilder).Append(arrow.MonthDayNanoInterval{Days: 2, Nanoseconds: 300e9})
		}), "2 days 5m0s", `"2 days 5m0s"`},
		{"binary", build(arrow.BinaryTypes.Binary, func(b array.Builder) { b.(*array.BinaryBuilder).Append([]byte{1, 0xab}) }), `\x01ab`, `"Aas="`},
		{"map", build(Map(Int), func(b array.Builder) {
			mb := b.(*array.MapBuilder)
			mb.Append(true)
			mb.KeyBuilder().(*array.StringBuilder).Append("a\"")
			mb.ItemBuilder().(*array.Int32Builder).AppendNull()
		}), `{"a\"":null}`, `{"a\"":null}`},
		{"nan", build(Double, func(b array.Builder) { b.(*array.Float64Builder).Append(nan()) }), "NaN", `"NaN"`},
		{"control chars", build(String, func(b array.Builder) { b.(*array.StringBuilder).Append("a\x01\u2028") }), "a\x01\u2028", `"a\u0001\u2028"`},
	}
	for _, tt := range tests {
		text, ok := Text(tt.arr, 0)
		if !ok || text != tt.text {
			t.Errorf("%s: Text = %q, %v; want %q", tt.name, text, ok, tt.text)
		}
		if got := string(AppendJSON(nil, tt.arr, 0)); got != tt.json {
			t.Errorf("%s: JSON = %s, want %s", tt.name, got, tt.json)
		}
	}
	dict := build(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: String}, func(b array.Builder) {
		db := b.(*array.BinaryDictionaryBuilder)
		db.AppendString("x")
		db.AppendNull()
	})
	if s, ok := Text(dict, 0); s != "x" || !ok {
		t.Errorf("dictionary: %q", s)
	}
	if _, ok := Text(dict, 1); ok {
		t.Error("dictionary NULL reported as a value")
	}
}

func nan() float64 {
	var z float64
	return z / z
}
