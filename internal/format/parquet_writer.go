package format

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ParquetRowGroupRows is the most rows a written row group holds: small
// enough that min/max pruning has something to skip, large enough to
// keep column chunks efficient.
const ParquetRowGroupRows = 128 * 1024

// parquetWriter writes one Parquet file through pqarrow.
type parquetWriter struct {
	fw     *pqarrow.FileWriter
	closed bool
}

var _ Writer = (*parquetWriter)(nil)

func newParquetWriter(w io.Writer, schema *arrow.Schema, opts Options) (*parquetWriter, error) {
	var codec compress.Compression
	switch writerCodec(opts.Compression) {
	case CodecNone:
		codec = compress.Codecs.Uncompressed
		if opts.Compression == "" || opts.Compression == CodecAuto {
			codec = compress.Codecs.Snappy
		}
	case CodecSnappy:
		codec = compress.Codecs.Snappy
	case CodecZstd:
		codec = compress.Codecs.Zstd
	case CodecGzip:
		codec = compress.Codecs.Gzip
	default:
		return nil, fmt.Errorf("writing parquet: compression %s is not supported (use snappy, zstd, gzip or none)", opts.Compression)
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(codec),
		parquet.WithMaxRowGroupLength(ParquetRowGroupRows),
		parquet.WithStats(true),
	)
	fw, err := pqarrow.NewFileWriter(schema, noClose{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, fmt.Errorf("writing parquet: %w", err)
	}
	return &parquetWriter{fw: fw}, nil
}

func (p *parquetWriter) Write(batch arrow.RecordBatch) error {
	if p.closed {
		return fmt.Errorf("writing parquet: writer is closed")
	}
	if err := p.fw.WriteBuffered(batch); err != nil {
		return fmt.Errorf("writing parquet: %w", err)
	}
	return nil
}

func (p *parquetWriter) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	if err := p.fw.Close(); err != nil {
		return fmt.Errorf("writing parquet: %w", err)
	}
	return nil
}
