// Package format decodes and encodes the file formats Sluice reads and
// writes (JSON lines, CSV, Parquet) to and from Arrow record batches, with
// transparent compression (gzip, zstd, snappy, bzip2).
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
}
