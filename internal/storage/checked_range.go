package storage

import (
	"context"
	"fmt"
	"io"
)

// OpenRangeChecked streams length bytes of an object from offset (length
// < 0: to the end) that a listing said holds size bytes, and fails with
// ErrChanged, naming the object, when the range ends before the bytes the
// listed size promises: the object was truncated after the listing. A
// negative size skips the check.
func OpenRangeChecked(ctx context.Context, st Store, key string, offset, length, size int64) (io.ReadCloser, error) {
	rc, err := st.OpenRange(ctx, key, offset, length)
	if err != nil {
		return nil, err
	}
	want := int64(-1)
	if size >= 0 {
		want = max(size-offset, 0)
		if length >= 0 {
			want = min(want, length)
		}
	}
	return &rangeChecked{rc: rc, st: st, key: key, want: want}, nil
}

type rangeChecked struct {
	rc      io.ReadCloser
	st      Store
	key     string
	want, n int64
}

func (c *rangeChecked) Read(p []byte) (int, error) {
	n, err := c.rc.Read(p)
	c.n += int64(n)
	if err == io.EOF && c.want >= 0 && c.n < c.want {
		return n, fmt.Errorf("reading %s: %w (range ended after %d of %d bytes)", objectName(c.st, c.key), ErrChanged, c.n, c.want)
	}
	return n, err
}

func (c *rangeChecked) Close() error { return c.rc.Close() }
