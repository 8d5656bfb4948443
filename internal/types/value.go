package types

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// StructValue is a STRUCT element as a Go value: field names and values
// in declaration order.
type StructValue struct {
	Names  []string
	Values []any
}

// Get returns the named field's value (exact name first, then any case).
func (s StructValue) Get(name string) (any, bool) {
	for i, n := range s.Names {
		if n == name {
			return s.Values[i], true
		}
	}
	for i, n := range s.Names {
		if strings.EqualFold(n, name) {
			return s.Values[i], true
		}
	}
	return nil, false
}

// ValueAt returns element i of arr as a Go value:
//
//	NULL -> nil, BOOLEAN -> bool, any integer -> int64, any float -> float64,
//	STRING -> string, BINARY -> []byte, DECIMAL -> string with its scale ("12.50"),
//	DATE -> string "2024-01-31", TIMESTAMP -> time.Time (UTC),
//	INTERVAL -> arrow.MonthDayNanoInterval, ARRAY -> []any,
//	MAP -> map[string]any (keys printed with FormatValue), STRUCT -> StructValue.
func ValueAt(arr arrow.Array, i int) any {
	if IsNull(arr, i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return int64(a.Value(i))
	case *array.Uint16:
		return int64(a.Value(i))
	case *array.Uint32:
		return int64(a.Value(i))
	case *array.Uint64:
		return int64(a.Value(i))
	case *array.Float16:
		return float64(a.Value(i).Float32())
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		// Copies: the value must outlive the array's buffers.
		return strings.Clone(a.Value(i))
	case *array.LargeString:
		return strings.Clone(a.Value(i))
	case *array.StringView:
		return strings.Clone(a.Value(i))
	case *array.Binary:
		return append([]byte(nil), a.Value(i)...)
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Date32:
		return FormatDate(int32(a.Value(i)))
	case *array.Date64:
		return FormatDate(int32(int64(a.Value(i)) / 86400_000))
	case *array.Timestamp:
		return FromMicros(timestampMicros(a, i))
	case *array.MonthDayNanoInterval:
		return a.Value(i)
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit
		return arrow.MonthDayNanoInterval{Nanoseconds: int64(a.Value(i)) * int64(unit.Multiplier())}
	case *array.Map:
		keys, items := a.Keys(), a.Items()
		start, end := a.ValueOffsets(i)
		m := make(map[string]any, end-start)
		for j := int(start); j < int(end); j++ {
			m[FormatValue(keys, j)] = ValueAt(items, j)
		}
		return m
	case *array.List:
		vals := a.ListValues()
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			out = append(out, ValueAt(vals, j))
		}
		return out
	case *array.LargeList:
		vals := a.ListValues()
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			out = append(out, ValueAt(vals, j))
		}
		return out
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		sv := StructValue{Names: make([]string, st.NumFields()), Values: make([]any, st.NumFields())}
		for f := 0; f < st.NumFields(); f++ {
			sv.Names[f] = st.Field(f).Name
			sv.Values[f] = ValueAt(a.Field(f), i)
		}
		return sv
	}
	return arr.ValueStr(i)
}

func timestampMicros(a *array.Timestamp, i int) int64 {
	v := int64(a.Value(i))
	switch a.DataType().(*arrow.TimestampType).Unit {
	case arrow.Second:
		return v * 1_000_000
	case arrow.Millisecond:
		return v * 1000
	case arrow.Nanosecond:
		return v / 1000
	}
	return v
}

// FormatValue prints element i of arr the way query results show it, in
// Spark's style:
//
//	NULL                 NULL (also inside arrays, maps and structs)
//	BOOLEAN              true, false
//	DOUBLE               1.5, 2.0, 1.0E10, 1.0E-5, NaN, Infinity (Java's Double.toString)
//	DECIMAL              with its scale: 12.50
//	DATE, TIMESTAMP      2024-01-31, 2024-01-31 10:00:00[.123456]
//	STRING               as is at the top level and inside nested values
//	ARRAY                [a, b, NULL]
//	MAP                  {k1 -> v1, k2 -> v2}
//	STRUCT               {city: Paris, zip: 75001} (field names make it unambiguous)
func FormatValue(arr arrow.Array, i int) string {
	var b strings.Builder
	formatInto(&b, arr, i)
	return b.String()
}

func formatInto(b *strings.Builder, arr arrow.Array, i int) {
	if IsNull(arr, i) {
		b.WriteString("NULL")
		return
	}
	switch a := arr.(type) {
	case *array.String:
		b.WriteString(a.Value(i))
	case *array.Float64:
		b.WriteString(FormatDouble(a.Value(i)))
	case *array.Float32:
		b.WriteString(FormatDouble(float64(a.Value(i))))
	case *array.Float16:
		b.WriteString(FormatDouble(float64(a.Value(i).Float32())))
	case *array.Timestamp:
		b.WriteString(FormatTimestamp(timestampMicros(a, i)))
	case *array.MonthDayNanoInterval:
		b.WriteString(FormatInterval(a.Value(i)))
	case *array.Binary:
		b.WriteString(string(a.Value(i)))
	case *array.Map:
		keys, items := a.Keys(), a.Items()
		start, end := a.ValueOffsets(i)
		b.WriteByte('{')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				b.WriteString(", ")
			}
			formatInto(b, keys, j)
			b.WriteString(" -> ")
			formatInto(b, items, j)
		}
		b.WriteByte('}')
	case *array.List:
		formatList(b, a.ListValues(), a, i)
	case *array.LargeList:
		formatList(b, a.ListValues(), a, i)
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		b.WriteByte('{')
		for f := 0; f < st.NumFields(); f++ {
			if f > 0 {
				b.WriteString(", ")
			}
			b.WriteString(st.Field(f).Name)
			b.WriteString(": ")
			formatInto(b, a.Field(f), i)
		}
		b.WriteByte('}')
	default:
		switch v := ValueAt(arr, i).(type) {
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		case string:
			b.WriteString(v)
		default:
			b.WriteString(arr.ValueStr(i))
		}
	}
}

func formatList(b *strings.Builder, vals arrow.Array, a array.ListLike, i int) {
	start, end := a.ValueOffsets(i)
	b.WriteByte('[')
	for j := int(start); j < int(end); j++ {
		if j > int(start) {
			b.WriteString(", ")
		}
		formatInto(b, vals, j)
	}
	b.WriteByte(']')
}

// FormatDouble prints a DOUBLE as Java's Double.toString does (and so
// Spark): plain notation with at least one fractional digit for
// 1e-3 <= |x| < 1e7, else scientific with an upper-case E: 1.0E10.
func FormatDouble(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	ax := math.Abs(x)
	if ax >= 1e-3 && ax < 1e7 {
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsRune(s, '.') {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(x, 'e', -1, 64) // 1.5e+10, 1e-05
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.ContainsRune(mant, '.') {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
