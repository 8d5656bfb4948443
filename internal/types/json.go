package types

import (
	"encoding/base64"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// AppendJSON appends row i of arr as a JSON value: null, numbers, strings,
// ISO-8601 timestamps ("2026-11-30T12:00:00Z"), objects for structs and
// maps (keys in column order), arrays for lists. NaN and infinities, which
// JSON cannot spell, become the strings "NaN", "Infinity", "-Infinity".
func AppendJSON(b []byte, arr arrow.Array, i int) []byte {
	if IsNull(arr, i) {
		return append(b, "null"...)
	}
	switch a := arr.(type) {
	case *array.String:
		return AppendJSONString(b, a.Value(i))
	case *array.LargeString:
		return AppendJSONString(b, a.Value(i))
	case *array.StringView:
		return AppendJSONString(b, a.Value(i))
	case *array.Boolean:
		return strconv.AppendBool(b, a.Value(i))
	case *array.Int8, *array.Int16, *array.Int32, *array.Int64,
		*array.Uint8, *array.Uint16, *array.Uint32, *array.Uint64:
		return append(b, arr.ValueStr(i)...)
	case *array.Float64:
		return appendJSONFloat(b, a.Value(i))
	case *array.Float32:
		return appendJSONFloat(b, float64(a.Value(i)))
	case *array.Decimal128:
		s, _ := Text(a, i)
		return append(b, s...)
	case *array.Decimal256:
		return append(b, arr.ValueStr(i)...)
	case *array.Timestamp:
		t := FromMicros(timestampMicros(a, i))
		return AppendJSONString(b, t.Format(time.RFC3339Nano))
	case *array.Binary:
		return AppendJSONString(b, base64.StdEncoding.EncodeToString(a.Value(i)))
	case *array.LargeBinary:
		return AppendJSONString(b, base64.StdEncoding.EncodeToString(a.Value(i)))
	case *array.Dictionary:
		return AppendJSON(b, a.Dictionary(), a.GetValueIndex(i))
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		b = append(b, '{')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				b = append(b, ',')
			}
			k, _ := Text(keys, j)
			b = AppendJSONString(b, k)
			b = append(b, ':')
			b = AppendJSON(b, items, j)
		}
		return append(b, '}')
	case *array.List:
		start, end := a.ValueOffsets(i)
		return appendJSONList(b, a.ListValues(), int(start), int(end))
	case *array.LargeList:
		start, end := a.ValueOffsets(i)
		return appendJSONList(b, a.ListValues(), int(start), int(end))
	case *array.FixedSizeList:
		start, end := a.ValueOffsets(i)
		return appendJSONList(b, a.ListValues(), int(start), int(end))
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		b = append(b, '{')
		for j := 0; j < a.NumField(); j++ {
			if j > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, st.Field(j).Name)
			b = append(b, ':')
			b = AppendJSON(b, a.Field(j), i)
		}
		return append(b, '}')
	}
	s, _ := Text(arr, i)
	return AppendJSONString(b, s)
}

func appendJSONList(b []byte, values arrow.Array, start, end int) []byte {
	b = append(b, '[')
	for j := start; j < end; j++ {
		if j > start {
			b = append(b, ',')
		}
		b = AppendJSON(b, values, j)
	}
	return append(b, ']')
}

func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return AppendJSONString(b, FormatDouble(f))
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// appendJSONString quotes s as a JSON string. Unlike encoding/json it
// leaves <, > and & alone: the output is for people and tools, not HTML.
func AppendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
