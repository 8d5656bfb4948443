package format

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// csvWriter writes CSV; see NewWriter for the encoding.
type csvWriter struct {
	opts   Options
	zw     io.WriteCloser
	bw     *bufio.Writer
	delim  string
	quote  string
	buf    []byte
	header []string
	wrote  bool
	closed bool
}

var _ Writer = (*csvWriter)(nil)

func newCSVWriter(w io.Writer, schema *arrow.Schema, opts Options) (*csvWriter, error) {
	zw, err := Compress(noClose{w}, writerCodec(opts.Compression))
	if err != nil {
		return nil, fmt.Errorf("writing csv: %w", err)
	}
	q := opts.Quote
	if q == 0 {
		q = '"' // fields that need quoting are always quoted
	}
	c := &csvWriter{opts: opts, zw: zw, bw: bufio.NewWriterSize(zw, 256<<10),
		delim: string(opts.Delimiter), quote: string(q)}
	if opts.Header {
		for _, f := range schema.Fields() {
			c.header = append(c.header, f.Name)
		}
	}
	return c, nil
}

func (c *csvWriter) writeHeader() error {
	if c.wrote {
		return nil
	}
	c.wrote = true
	if c.header == nil {
		return nil
	}
	b := c.buf[:0]
	for i, h := range c.header {
		if i > 0 {
			b = append(b, c.delim...)
		}
		b = c.appendField(b, h, false)
	}
	b = append(b, '\n')
	c.buf = b
	_, err := c.bw.Write(b)
	return err
}

func (c *csvWriter) Write(batch arrow.RecordBatch) error {
	if c.closed {
		return fmt.Errorf("writing csv: writer is closed")
	}
	if err := c.writeHeader(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	cols := batch.Columns()
	for row := 0; row < int(batch.NumRows()); row++ {
		b := c.buf[:0]
		for k, col := range cols {
			if k > 0 {
				b = append(b, c.delim...)
			}
			if types.IsNull(col, row) {
				b = append(b, c.opts.NullValue...)
				continue
			}
			b = c.appendField(b, csvText(col, row), true)
		}
		b = append(b, '\n')
		c.buf = b
		if _, err := c.bw.Write(b); err != nil {
			return fmt.Errorf("writing csv: %w", err)
		}
	}
	return nil
}

// appendField quotes s when a reader could otherwise misread it: it
// holds the delimiter, a quote, a line break, or is empty (an unquoted
// empty field reads back as NULL) or equals the null value.
func (c *csvWriter) appendField(b []byte, s string, value bool) []byte {
	need := s == "" && value || value && c.opts.NullValue != "" && s == c.opts.NullValue ||
		strings.Contains(s, c.delim) || strings.Contains(s, c.quote) || strings.ContainsAny(s, "\r\n") ||
		c.opts.Escape != 0 && strings.ContainsRune(s, c.opts.Escape)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if !need {
		return append(b, s...)
	}
	b = append(b, c.quote...)
	for _, r := range s {
		switch {
		case string(r) == c.quote:
			b = append(b, c.quote...) // RFC 4180 doubling, which the reader always accepts
		case c.opts.Escape != 0 && r == c.opts.Escape && c.opts.Escape != rune(c.quote[0]):
			b = utf8.AppendRune(b, r) // escape the escape so it reads back as itself
		}
		b = utf8.AppendRune(b, r)
	}
	return append(b, c.quote...)
}

// csvText renders one non-null value as CSV text: timestamps ISO-8601,
// nested values as JSON.
func csvText(a arrow.Array, i int) string {
	switch c := a.(type) {
	case *array.String:
		return c.Value(i)
	case *array.Boolean:
		return strconv.FormatBool(c.Value(i))
	case *array.Int32:
		return strconv.FormatInt(int64(c.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(c.Value(i), 10)
	case *array.Float64:
		return strconv.FormatFloat(c.Value(i), 'g', -1, 64)
	case *array.Date32:
		return types.FormatDate(int32(c.Value(i)))
	case *array.Timestamp:
		return string(formatTimestampISO(nil, tsMicros(c.Value(i), c.DataType().(*arrow.TimestampType).Unit)))
	case *array.Decimal128:
		return c.Value(i).ToString(c.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Struct, *array.List, *array.Map, *array.LargeList:
		return string(appendJSONValue(nil, a, i))
	case *array.MonthDayNanoInterval:
		return formatIntervalText(c.Value(i))
	}
	return a.ValueStr(i)
}

func (c *csvWriter) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	if err := c.writeHeader(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	if err := c.bw.Flush(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	if err := c.zw.Close(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	return nil
}
