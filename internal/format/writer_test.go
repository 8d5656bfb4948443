package format

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// sampleSchema has every SQL type the formats carry.
func sampleSchema(nested bool) *arrow.Schema {
	fs := []arrow.Field{
		fld("b", types.Boolean), fld("i", types.Int), fld("l", types.BigInt), fld("d", types.Double),
		fld("dec", types.Decimal(12, 3)), fld("s", types.String), fld("day", types.Date), fld("ts", types.Timestamp),
	}
	if nested {
		fs = append(fs, fld("geo", types.Struct(fld("city", types.String), fld("n", types.BigInt))),
			fld("tags", types.Array(types.String)), fld("m", types.Map(types.Double)))
	}
	return schemaOf(fs...)
}

// sampleBatch builds rows with NULLs, empty strings, quotes, delimiters,
// newlines and unicode, the values that break naive encoders.
func sampleBatch(t *testing.T, schema *arrow.Schema, n int) arrow.RecordBatch {
	t.Helper()
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	strs := []string{"plain", "", `quo"te`, "comma,here", "new\nline", "ünï ☃", "tab\tx", "NA"}
	for r := 0; r < n; r++ {
		for c, f := range schema.Fields() {
			b := rb.Field(c)
			if (r+c)%7 == 3 {
				b.AppendNull()
				continue
			}
			switch f.Name {
			case "b":
				b.(*array.BooleanBuilder).Append(r%2 == 0)
			case "i":
				b.(*array.Int32Builder).Append(int32(r*31 - 1000))
			case "l":
				b.(*array.Int64Builder).Append(int64(r) * 1e12)
			case "d":
				b.(*array.Float64Builder).Append(float64(r)/3 - 7)
			case "dec":
				b.(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r*12345 - 99999)))
			case "s":
				b.(*array.StringBuilder).Append(strs[r%len(strs)])
			case "day":
				b.(*array.Date32Builder).Append(arrow.Date32(20000 + r))
			case "ts":
				b.(*array.TimestampBuilder).Append(arrow.Timestamp(1764477416000000 + int64(r)*1234567))
			case "geo":
				sb := b.(*array.StructBuilder)
				sb.Append(true)
				sb.FieldBuilder(0).(*array.StringBuilder).Append(strs[(r+1)%len(strs)])
				if r%3 == 0 {
					sb.FieldBuilder(1).AppendNull()
				} else {
					sb.FieldBuilder(1).(*array.Int64Builder).Append(int64(r))
				}
			case "tags":
				lb := b.(*array.ListBuilder)
				lb.Append(true)
				for k := 0; k < r%3; k++ {
					lb.ValueBuilder().(*array.StringBuilder).Append(strs[k])
				}
			case "m":
				mb := b.(*array.MapBuilder)
				mb.Append(true)
				for k := 0; k < r%2+1; k++ {
					mb.KeyBuilder().(*array.StringBuilder).Append(strs[k] + "k")
					mb.ItemBuilder().(*array.Float64Builder).Append(float64(k) + 0.5)
				}
			}
		}
	}
	return rb.NewRecordBatch()
}

func TestWriterRoundTrip(t *testing.T) {
	cases := []struct {
		format, codec string
		nested        bool
		opts          Options
	}{
		{"json", "none", true, Options{}},
		{"json", "gzip", true, Options{}},
		{"json", "zstd", true, Options{}},
		// The sample strings hold newlines, which only multiLine reads back.
		{"csv", "none", false, Options{Header: true, MultiLine: true}},
		{"csv", "snappy", false, Options{Header: true, Delimiter: ';', NullValue: "NULL", MultiLine: true}},
		{"csv", "none", false, Options{Header: false, Delimiter: '\t', MultiLine: true}},
		{"parquet", "snappy", true, Options{}},
		{"parquet", "zstd", true, Options{}},
		{"parquet", "none", true, Options{}},
	}
	for _, c := range cases {
		t.Run(c.format+"/"+c.codec, func(t *testing.T) {
			schema := sampleSchema(c.nested)
			batch := sampleBatch(t, schema, 300)
			if c.format == "csv" && !c.opts.Header {
				fs := schema.Fields()
				for i := range fs {
					fs[i].Name = "_c" + string(rune('0'+i))
				}
				schema = arrow.NewSchema(fs, nil)
				renamed := array.NewRecordBatch(schema, batch.Columns(), batch.NumRows())
				batch.Release()
				batch = renamed
			}
			defer batch.Release()
			opts := c.opts
			opts.Format, opts.Compression = c.format, c.codec
			var buf bytes.Buffer
			w, err := NewWriter(&buf, schema, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(batch); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			opts.Compression = "auto"
			if c.format != "parquet" {
				opts.Compression = c.codec
			}
			got := mustRead(t, memFile("x", buf.Bytes()), schema, opts)
			want := rowsJSON(t, batch)
			eqRows(t, got, want)
		})
	}
}

func TestJSONWriterEncoding(t *testing.T) {
	schema := schemaOf(fld("ts", types.Timestamp), fld("d", types.Double), fld("s", types.String), fld("n", types.BigInt))
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	rb.Field(0).(*array.TimestampBuilder).Append(1764477416000000)
	rb.Field(1).(*array.Float64Builder).Append(math.NaN())
	rb.Field(2).(*array.StringBuilder).Append("a\"b\x01\xff")
	rb.Field(3).AppendNull()
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, schema, Options{Format: "json"})
	w.Write(rec)
	w.Close()
	want := `{"ts":"2025-11-30T04:36:56Z","d":"NaN","s":"a\"b\u0001` + "\uFFFD" + `"}` + "\n"
	if buf.String() != want {
		t.Fatalf("got %q\nwant %q", buf.String(), want)
	}
}

func TestWriterErrors(t *testing.T) {
	if _, err := NewWriter(&bytes.Buffer{}, sampleSchema(false), Options{Format: "xml"}); err == nil || !strings.Contains(err.Error(), "unknown format") {
		t.Fatalf("err %v", err)
	}
	if _, err := NewWriter(&bytes.Buffer{}, sampleSchema(false), Options{Format: "json", Compression: "bzip2"}); err == nil {
		t.Fatal("bzip2 writer accepted")
	}
	if _, err := NewReader(context.Background(), memFile("x.xml", nil), sampleSchema(false), Options{}); err == nil {
		t.Fatal("unknown format accepted")
	}
}
