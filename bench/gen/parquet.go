package gen

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// RowGroupRows is the number of rows in each Parquet row group.
const RowGroupRows = 128 * 1024

// Schema is the data set's Arrow schema, the one the Parquet files carry
// and the NDJSON columns map onto. TIMESTAMP is microseconds, UTC.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "@timestamp", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "clientip", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "method", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "path", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "latency_ms", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "user_agent", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "geo", Type: arrow.StructOf(
		arrow.Field{Name: "country", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
	), Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
}, nil)

// parquetWriter buffers rows in Arrow builders and writes one row group
// per RowGroupRows rows.
type parquetWriter struct {
	fw      *pqarrow.FileWriter
	b       *array.RecordBuilder
	ts      *array.TimestampBuilder
	ip      *array.StringBuilder
	method  *array.StringBuilder
	path    *array.StringBuilder
	status  *array.Int32Builder
	bytes   *array.Int64Builder
	latency *array.Float64Builder
	ua      *array.StringBuilder
	geo     *array.StructBuilder
	country *array.StringBuilder
	city    *array.StringBuilder
	tags    *array.ListBuilder
	tag     *array.StringBuilder
	n       int
}

func newParquetWriter(w io.Writer) (*parquetWriter, error) {
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(RowGroupRows),
		parquet.WithDictionaryDefault(true),
		parquet.WithStats(true),
		parquet.WithCreatedBy("sluice bench gen"),
	)
	fw, err := pqarrow.NewFileWriter(Schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, fmt.Errorf("opening parquet writer: %w", err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, Schema)
	geo := b.Field(8).(*array.StructBuilder)
	tags := b.Field(9).(*array.ListBuilder)
	return &parquetWriter{
		fw: fw, b: b,
		ts:      b.Field(0).(*array.TimestampBuilder),
		ip:      b.Field(1).(*array.StringBuilder),
		method:  b.Field(2).(*array.StringBuilder),
		path:    b.Field(3).(*array.StringBuilder),
		status:  b.Field(4).(*array.Int32Builder),
		bytes:   b.Field(5).(*array.Int64Builder),
		latency: b.Field(6).(*array.Float64Builder),
		ua:      b.Field(7).(*array.StringBuilder),
		geo:     geo,
		country: geo.FieldBuilder(0).(*array.StringBuilder),
		city:    geo.FieldBuilder(1).(*array.StringBuilder),
		tags:    tags,
		tag:     tags.ValueBuilder().(*array.StringBuilder),
	}, nil
}

func (p *parquetWriter) add(row *Row) error {
	p.ts.Append(arrow.Timestamp(row.TimestampMs * 1000))
	p.ip.Append(row.ClientIP)
	p.method.Append(row.Method)
	p.path.Append(row.Path)
	p.status.Append(row.Status)
	p.bytes.Append(row.Bytes)
	p.latency.Append(row.LatencyMs)
	p.ua.Append(row.UserAgent)
	p.geo.Append(true)
	p.country.Append(row.Country)
	p.city.Append(row.City)
	p.tags.Append(true)
	for _, t := range row.Tags {
		p.tag.Append(t)
	}
	p.n++
	if p.n == RowGroupRows {
		return p.flush()
	}
	return nil
}

func (p *parquetWriter) flush() error {
	if p.n == 0 {
		return nil
	}
	rec := p.b.NewRecordBatch()
	defer rec.Release()
	p.n = 0
	if err := p.fw.Write(rec); err != nil {
		return fmt.Errorf("writing parquet row group: %w", err)
	}
	return nil
}

// close writes the last row group and the footer.
func (p *parquetWriter) close() error {
	defer p.b.Release()
	if err := p.flush(); err != nil {
		return err
	}
	if err := p.fw.Close(); err != nil {
		return fmt.Errorf("closing parquet writer: %w", err)
	}
	return nil
}
