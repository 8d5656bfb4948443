package connector

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// LimitReader yields at most n rows of r, then io.EOF, for sources that
// implement LimitPusher by cutting their readers short.
func LimitReader(r RecordReader, n int64) RecordReader {
	return &limitReader{r: r, left: n}
}

type limitReader struct {
	r    RecordReader
	left int64
}

func (l *limitReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if l.left <= 0 {
		return nil, io.EOF
	}
	b, err := l.r.Next(ctx)
	if err != nil {
		return nil, err
	}
	if b.NumRows() > l.left {
		cut := b.NewSlice(0, l.left)
		b.Release()
		b = cut
	}
	l.left -= b.NumRows()
	return b, nil
}

func (l *limitReader) Close() error { return l.r.Close() }

// BatchReader yields one in-memory batch (retained for the caller), then
// io.EOF: the reader of sources whose splits are batches already in
// memory.
func BatchReader(b arrow.RecordBatch) RecordReader { return &batchReader{batch: b} }

type batchReader struct {
	batch arrow.RecordBatch
	done  bool
}

func (r *batchReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.done {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.done = true
	r.batch.Retain()
	return r.batch, nil
}

func (r *batchReader) Close() error { return nil }

// BatchBytes is the size of a batch's buffers, a split's Size for
// in-memory sources.
func BatchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				n += int64(buf.Len())
			}
		}
	}
	return n
}
