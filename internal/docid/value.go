package docid

import (
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// ValueAt is row i of arr as a key part. Within one column (one type)
// distinct values give distinct texts: scalars print as types.FormatValue
// does (timestamps as RFC 3339 in UTC, to the microsecond); nested values
// print as FormatValue does too, but with their string and binary leaves
// quoted, so a leaf holding ", " or "NULL" cannot pass for structure or
// for a NULL leaf. A column's type is fixed by the table, so the text
// need not carry it, and a key keeps its document when its column's type
// is widened (INT to BIGINT prints the same).
func ValueAt(arr arrow.Array, i int) Part {
	if types.IsNull(arr, i) {
		return Part{Null: true}
	}
	switch a := arr.(type) {
	case *array.Timestamp:
		// The format ids have always used for a timestamp key.
		return Part{Text: types.ValueAt(a, i).(time.Time).UTC().Format("2006-01-02T15:04:05.999999Z")}
	case *array.Struct, *array.List, *array.LargeList, *array.Map:
		var b strings.Builder
		nested(&b, arr, i)
		return Part{Text: b.String()}
	}
	return Part{Text: types.FormatValue(arr, i)}
}

// nested prints a nested value the way types.FormatValue lays it out,
// with string and binary leaves quoted.
func nested(b *strings.Builder, arr arrow.Array, i int) {
	if types.IsNull(arr, i) {
		b.WriteString("NULL")
		return
	}
	switch a := arr.(type) {
	case *array.String:
		b.WriteString(strconv.Quote(a.Value(i)))
	case *array.LargeString:
		b.WriteString(strconv.Quote(a.Value(i)))
	case *array.Binary:
		b.WriteString(strconv.Quote(string(a.Value(i))))
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		b.WriteByte('{')
		for f := 0; f < st.NumFields(); f++ {
			if f > 0 {
				b.WriteString(", ")
			}
			b.WriteString(st.Field(f).Name)
			b.WriteString(": ")
			nested(b, a.Field(f), i)
		}
		b.WriteByte('}')
	case *array.List:
		start, end := a.ValueOffsets(i)
		list(b, a.ListValues(), int(start), int(end))
	case *array.LargeList:
		start, end := a.ValueOffsets(i)
		list(b, a.ListValues(), int(start), int(end))
	case *array.Map:
		keys, items := a.Keys(), a.Items()
		start, end := a.ValueOffsets(i)
		b.WriteByte('{')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				b.WriteString(", ")
			}
			nested(b, keys, j)
			b.WriteString(" -> ")
			nested(b, items, j)
		}
		b.WriteByte('}')
	default:
		b.WriteString(types.FormatValue(arr, i))
	}
}

func list(b *strings.Builder, values arrow.Array, start, end int) {
	b.WriteByte('[')
	for j := start; j < end; j++ {
		if j > start {
			b.WriteString(", ")
		}
		nested(b, values, j)
	}
	b.WriteByte(']')
}
