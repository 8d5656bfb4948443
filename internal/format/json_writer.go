package format

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// jsonWriter writes JSON lines; see NewWriter for the encoding.
type jsonWriter struct {
	schema *arrow.Schema
	zw     io.WriteCloser
	bw     *bufio.Writer
	buf    []byte
	rows   JSONRows
	closed bool
}

var _ Writer = (*jsonWriter)(nil)

func newJSONWriter(w io.Writer, schema *arrow.Schema, opts Options) (*jsonWriter, error) {
	zw, err := Compress(noClose{w}, writerCodec(opts.Compression))
	if err != nil {
		return nil, fmt.Errorf("writing json: %w", err)
	}
	return &jsonWriter{schema: schema, zw: zw, bw: bufio.NewWriterSize(zw, 256<<10)}, nil
}

func (j *jsonWriter) Write(batch arrow.RecordBatch) error {
	if j.closed {
		return fmt.Errorf("writing json: writer is closed")
	}
	n := int(batch.NumRows())
	j.rows.Bind(batch)
	for row := 0; row < n; row++ {
		b := j.rows.AppendRow(j.buf[:0], row)
		b = append(b, '\n')
		j.buf = b
		if _, err := j.bw.Write(b); err != nil {
			return fmt.Errorf("writing json: %w", err)
		}
	}
	return nil
}

func (j *jsonWriter) Close() error {
	if j.closed {
		return nil
	}
	j.closed = true
	if err := j.bw.Flush(); err != nil {
		return fmt.Errorf("writing json: %w", err)
	}
	if err := j.zw.Close(); err != nil {
		return fmt.Errorf("writing json: %w", err)
	}
	return nil
}

// formatTimestampISO prints micros as ISO-8601 UTC with a fraction only
// when there is one.
func formatTimestampISO(b []byte, us int64) []byte {
	return types.FromMicros(us).AppendFormat(b, time.RFC3339Nano)
}

func tsMicros(v arrow.Timestamp, u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return int64(v) * 1_000_000
	case arrow.Millisecond:
		return int64(v) * 1000
	case arrow.Nanosecond:
		return floorDiv(int64(v), 1000)
	}
	return int64(v)
}

// appendJSONValue appends row i of a (not null) as JSON.
func appendJSONValue(b []byte, a arrow.Array, i int) []byte {
	if types.IsNull(a, i) {
		return append(b, "null"...)
	}
	switch c := a.(type) {
	case *array.Boolean:
		return strconv.AppendBool(b, c.Value(i))
	case *array.Int8:
		return strconv.AppendInt(b, int64(c.Value(i)), 10)
	case *array.Int16:
		return strconv.AppendInt(b, int64(c.Value(i)), 10)
	case *array.Int32:
		return strconv.AppendInt(b, int64(c.Value(i)), 10)
	case *array.Int64:
		return strconv.AppendInt(b, c.Value(i), 10)
	case *array.Uint8:
		return strconv.AppendUint(b, uint64(c.Value(i)), 10)
	case *array.Uint16:
		return strconv.AppendUint(b, uint64(c.Value(i)), 10)
	case *array.Uint32:
		return strconv.AppendUint(b, uint64(c.Value(i)), 10)
	case *array.Uint64:
		return strconv.AppendUint(b, c.Value(i), 10)
	case *array.Float32:
		return appendJSONFloat(b, float64(c.Value(i)), 32)
	case *array.Float64:
		return appendJSONFloat(b, c.Value(i), 64)
	case *array.Decimal128:
		return append(b, c.Value(i).ToString(c.DataType().(*arrow.Decimal128Type).Scale)...)
	case *array.String:
		return appendJSONString(b, c.Value(i))
	case *array.LargeString:
		return appendJSONString(b, c.Value(i))
	case *array.Date32:
		b = append(b, '"')
		b = append(b, types.FormatDate(int32(c.Value(i)))...)
		return append(b, '"')
	case *array.Timestamp:
		b = append(b, '"')
		b = formatTimestampISO(b, tsMicros(c.Value(i), c.DataType().(*arrow.TimestampType).Unit))
		return append(b, '"')
	case *array.Struct:
		st := c.DataType().(*arrow.StructType)
		b = append(b, '{')
		first := true
		for k := 0; k < c.NumField(); k++ {
			f := c.Field(k)
			if types.IsNull(f, i) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendJSONString(b, st.Field(k).Name)
			b = append(b, ':')
			b = appendJSONValue(b, f, i)
		}
		return append(b, '}')
	case *array.Map:
		start, end := c.ValueOffsets(i)
		keys, items := c.Keys(), c.Items()
		b = append(b, '{')
		for k := start; k < end; k++ {
			if k > start {
				b = append(b, ',')
			}
			b = appendJSONString(b, keys.ValueStr(int(k)))
			b = append(b, ':')
			b = appendJSONValue(b, items, int(k))
		}
		return append(b, '}')
	case array.ListLike:
		start, end := c.ValueOffsets(i)
		vals := c.ListValues()
		b = append(b, '[')
		for k := start; k < end; k++ {
			if k > start {
				b = append(b, ',')
			}
			b = appendJSONValue(b, vals, int(k))
		}
		return append(b, ']')
	case *array.MonthDayNanoInterval:
		return appendJSONString(b, formatIntervalText(c.Value(i)))
	}
	return appendJSONString(b, a.ValueStr(i))
}

func appendJSONFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

// appendJSONString appends s quoted, escaping what JSON requires and
// replacing invalid UTF-8 with U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// formatIntervalText writes an interval in words that types.ParseInterval
// reads back exactly ("1 month 2 days 1 hour 5 minutes 250 milliseconds"),
// which the display form "1 month 2 days 1h5m0.25s" is not.
func formatIntervalText(iv arrow.MonthDayNanoInterval) string {
	var parts []string
	unit := func(n int64, name string) {
		if n == 1 || n == -1 {
			parts = append(parts, strconv.FormatInt(n, 10)+" "+name)
		} else {
			parts = append(parts, strconv.FormatInt(n, 10)+" "+name+"s")
		}
	}
	if iv.Months != 0 {
		unit(int64(iv.Months), "month")
	}
	if iv.Days != 0 {
		unit(int64(iv.Days), "day")
	}
	ns := iv.Nanoseconds
	if h := ns / int64(time.Hour); h != 0 {
		unit(h, "hour")
	}
	if m := ns % int64(time.Hour) / int64(time.Minute); m != 0 {
		unit(m, "minute")
	}
	// Sub-second parts as whole units: the parser reads "0.1 seconds"
	// through a float and could be off by a nanosecond.
	sec := ns % int64(time.Minute)
	if s := sec / int64(time.Second); s != 0 {
		unit(s, "second")
	}
	if ms := sec % int64(time.Second) / int64(time.Millisecond); ms != 0 {
		unit(ms, "millisecond")
	}
	if us := sec % int64(time.Millisecond) / int64(time.Microsecond); us != 0 {
		unit(us, "microsecond")
	}
	if n := sec % int64(time.Microsecond); n != 0 {
		unit(n, "nanosecond")
	}
	if len(parts) == 0 {
		return "0 seconds"
	}
	return strings.Join(parts, " ")
}
