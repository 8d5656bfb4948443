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
