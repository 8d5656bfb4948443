package format

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// JSONRows appends the rows of a batch as JSON objects, byte for byte as
// the json writer writes its lines (without the newline): fields in
// schema order, NULL fields left out. Bind resolves each column's type
// once per batch, so a row costs no type switch and no interface call
// for the common types; the OpenSearch sink hashes these bytes into
// document ids, so they must never change.
type JSONRows struct {
	fields []jsonField
}

// jsonField is one column (or struct field) bound to its array.
type jsonField struct {
	key []byte // `"name":`, escaped
	n   jsonNulls
	val jsonValue
}

// jsonValue appends row i of an array, known not null.
type jsonValue func(b []byte, i int) []byte

// jsonNulls tells an array's NULL rows.
type jsonNulls struct {
	all  bool   // Arrow's Null type: every row
	bits []byte // validity bitmap; nil when no row is NULL
	off  int
}

func nullsOf(a arrow.Array) jsonNulls {
	if a.DataType().ID() == arrow.NULL {
		return jsonNulls{all: true}
	}
	if a.NullN() == 0 {
		return jsonNulls{}
	}
	return jsonNulls{bits: a.NullBitmapBytes(), off: a.Data().Offset()}
}

func (n *jsonNulls) null(i int) bool {
	if n.bits == nil {
		return n.all
	}
	j := n.off + i
	return n.bits[j>>3]&(1<<(j&7)) == 0
}

// Bind points the encoder at batch's columns.
func (r *JSONRows) Bind(batch arrow.RecordBatch) {
	r.fields = bindFields(r.fields[:0], batch.Schema().Fields(), batch.Columns())
}

func bindFields(out []jsonField, fields []arrow.Field, cols []arrow.Array) []jsonField {
	for k, col := range cols {
		key := appendJSONString(nil, fields[k].Name)
		out = append(out, jsonField{key: append(key, ':'), n: nullsOf(col), val: bindValue(col)})
	}
	return out
}

// AppendRow appends row as a JSON object.
func (r *JSONRows) AppendRow(b []byte, row int) []byte {
	return appendObject(b, r.fields, row)
}

func appendObject(b []byte, fields []jsonField, i int) []byte {
	b = append(b, '{')
	first := true
	for k := range fields {
		f := &fields[k]
		if f.n.null(i) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.key...)
		b = f.val(b, i)
	}
	return append(b, '}')
}

// bindValue is appendJSONValue for one array, its type switched once.
// Types not listed go through appendJSONValue itself.
func bindValue(a arrow.Array) jsonValue {
	switch c := a.(type) {
	case *array.Boolean:
		return func(b []byte, i int) []byte { return strconv.AppendBool(b, c.Value(i)) }
	case *array.Int32:
		v := c.Int32Values()
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(v[i]), 10) }
	case *array.Int64:
		v := c.Int64Values()
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, v[i], 10) }
	case *array.Float64:
		v := c.Float64Values()
		return func(b []byte, i int) []byte { return appendJSONFloat(b, v[i], 64) }
	case *array.String:
		return func(b []byte, i int) []byte { return appendJSONString(b, c.Value(i)) }
	case *array.Timestamp:
		v, unit := c.TimestampValues(), c.DataType().(*arrow.TimestampType).Unit
		return func(b []byte, i int) []byte {
			b = append(b, '"')
			b = appendISOMicros(b, tsMicros(v[i], unit))
			return append(b, '"')
		}
	case *array.Struct:
		st := c.DataType().(*arrow.StructType)
		cols := make([]arrow.Array, c.NumField())
		for k := range cols {
			cols[k] = c.Field(k)
		}
		fields := bindFields(nil, st.Fields(), cols)
		return func(b []byte, i int) []byte { return appendObject(b, fields, i) }
	case *array.List:
		offs, off, vals := c.Offsets(), c.Data().Offset(), c.ListValues()
		n, val := nullsOf(vals), bindValue(vals)
		return func(b []byte, i int) []byte {
			b = append(b, '[')
			start, end := offs[off+i], offs[off+i+1]
			for k := start; k < end; k++ {
				if k > start {
					b = append(b, ',')
				}
				if n.null(int(k)) {
					b = append(b, "null"...)
				} else {
					b = val(b, int(k))
				}
			}
			return append(b, ']')
		}
	}
	return func(b []byte, i int) []byte { return appendJSONValue(b, a, i) }
}

// appendISOMicros is formatTimestampISO without time.Time: RFC 3339 in
// UTC, the fraction to the microsecond with trailing zeros cut, none
// when whole. Years outside 0-9999 go through time.
func appendISOMicros(b []byte, us int64) []byte {
	sec := floorDiv(us, 1_000_000)
	frac := us - sec*1_000_000
	days := floorDiv(sec, 86400)
	sod := sec - days*86400
	y, m, d := types.CivilDate(days)
	if y < 0 || y > 9999 {
		return formatTimestampISO(b, us)
	}
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10), 'T')
	h, mi, s := sod/3600, sod/60%60, sod%60
	b = append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':',
		byte('0'+s/10), byte('0'+s%10))
	if frac != 0 {
		var f [7]byte
		f[0] = '.'
		for k := 6; k >= 1; k-- {
			f[k] = byte('0' + frac%10)
			frac /= 10
		}
		n := 7
		for f[n-1] == '0' {
			n--
		}
		b = append(b, f[:n]...)
	}
	return append(b, 'Z')
}
