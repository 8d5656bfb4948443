// Package format decodes and encodes the file formats Sluice reads and
// writes (JSON lines, CSV, Parquet) to and from Arrow record batches, with
// transparent compression (gzip, zstd, snappy, bzip2).
//
// A reader is asked for the projected schema only; the rest of each
// record is skipped without being materialized:
//
//	opts, _ := format.ParseOptions("json", map[string]string{"mode": "DROPMALFORMED"})
//	schema := arrow.NewSchema([]arrow.Field{
//		{Name: "status", Type: types.Int, Nullable: true},
//		{Name: "_file", Type: types.String, Nullable: true},
//	}, nil)
//	rd, _ := format.NewReader(ctx, file, schema, opts) // file.Name "s3://logs/a.json.gz"
//	defer rd.Close()
//	for {
//		batch, err := rd.Next(ctx)
//		if err == io.EOF {
//			break
//		}
//		// ... use batch, then batch.Release()
//	}
//
// Bad rows follow Options.Mode (PERMISSIVE keeps them with NULLs and the
// raw text in _corrupt_record when the schema has it; DROPMALFORMED
// leaves them out; FAILFAST stops with "file:line: reason"), and each is
// reported to Options.OnBadRow.
//
// # Where the time goes
//
// File.Part reads one byte range (part.go: lines starting in (Start, End],
// Parquet row groups starting in [Start, End)), counting the lines before
// it only when a bad row or _row needs them.
//
// JSON: the reader remembers the previous record's keys (json.go shape), so
// a key at the same place that matches byte for byte skips scanning and
// lookup. A record without backslashes is scanned the plain way
// (json_plain.go): one SSE2 pass (quoteblocks_amd64.s, portable Go
// elsewhere) marks its quotes in bitmasks, so every string end is a mask
// lookup, and an all-ASCII record's strings skip the UTF-8 check; whatever
// that way refuses is scanned again bytewise, which alone reports errors.
// ISO timestamps remember the last date and hour (convert.go isoMemo).
//
// Parquet: top-level STRING/BINARY columns (and INT/BIGINT/FLOAT/DOUBLE
// ones, parquet_fixed.go) whose chunks use only PLAIN/dictionary values
// and RLE levels are read page by page (parquet_page_column.go,
// parquet_rle.go), not through pqarrow: a chunk's dictionary page becomes
// one Arrow array, dictionary-encoded rows are indices into it, and
// NextDict (DictReader) hands them over as dictionary arrays sharing the
// chunk's dictionary; PLAIN fallback pages and batches spanning chunks come
// as plain values.
//
// Writing: JSONRows (json_rows.go) encodes rows with each column's type
// resolved once a batch, NULLs from the bitmap and timestamps formatted
// without package time; the OpenSearch and index sinks use it for document
// sources, byte for byte the same as the JSON writer.
package format

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Reader yields record batches from one file.
//
// Next returns io.EOF after the last batch. Batches are owned by the
// caller. Close releases the file; it is safe to call more than once.
type Reader interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}

// Writer encodes record batches into one file.
//
// Write may be called many times; Close flushes and finishes the file
// (Parquet writes its footer there) but does not close the underlying
// io.Writer.
type Writer interface {
	Write(batch arrow.RecordBatch) error
	Close() error
}

// File is what a decoder reads from: a stream for line formats, random
// access for Parquet.
type File struct {
	// Name is the object's URI, used in error messages ("file:line").
	Name string
	// Size in bytes; needed by Parquet.
	Size int64
	// Open streams the raw (possibly compressed) bytes from the start.
	Open func(ctx context.Context) (io.ReadCloser, error)
	// ReaderAt gives random access (Parquet footers and row groups).
	ReaderAt func(ctx context.Context) (io.ReaderAt, error)
	// Part, when set, is the byte range to decode (see Part); nil is the
	// whole file. Line formats need OpenRange for it.
	Part *Part
	// OpenRange streams the raw bytes [off, off+n) (n < 0: to the end).
	OpenRange func(ctx context.Context, off, n int64) (io.ReadCloser, error)
}
