package storage

import (
	"context"
	"fmt"
	"io"
	"io/fs"
)

// OpenChecked streams an object that a listing said holds size bytes and
// fails with ErrChanged, naming the object, when the read cannot be the
// whole of one version: it ends with fewer bytes than size (truncated
// after the listing or while being read), or, for a local file, the
// file's size or modification time at the end of the read differ from
// those at its open, or the bytes read differ from its size at open.
// Without this a file truncated while a query read it gave a short
// result that looked complete. A file that grew after the listing is
// read whole: a stream replaying an epoch reads a file fixed since.
// A negative size skips the comparison with the listing.
func OpenChecked(ctx context.Context, st Store, key string, size int64) (io.ReadCloser, error) {
	rc, err := st.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	c := &checkedReader{rc: rc, name: objectName(st, key), size: size}
	if fi, ok := c.stat(); ok {
		c.atOpen = fi
	}
	return c, nil
}

type checkedReader struct {
	rc   io.ReadCloser
	name string
	size int64
	// atOpen is a local file's state when it was opened (nil otherwise).
	atOpen fs.FileInfo
	n      int64
	err    error
}

func (c *checkedReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.rc.Read(p)
	c.n += int64(n)
	if err == io.EOF {
		if cerr := c.checkEnd(); cerr != nil {
			c.err = cerr
			return n, cerr
		}
	}
	return n, err
}

func (c *checkedReader) Close() error { return c.rc.Close() }

func (c *checkedReader) checkEnd() error {
	if c.size >= 0 && c.n < c.size {
		return c.changed(fmt.Sprintf("listed with %d bytes, %d read", c.size, c.n))
	}
	if c.atOpen == nil {
		return nil // other stores read one version per request
	}
	if c.n != c.atOpen.Size() {
		return c.changed(fmt.Sprintf("%d bytes at open, %d read", c.atOpen.Size(), c.n))
	}
	if now, ok := c.stat(); ok && (now.Size() != c.atOpen.Size() || !now.ModTime().Equal(c.atOpen.ModTime())) {
		return c.changed("its size or modification time changed during the read")
	}
	return nil
}

// stat returns a local file's current state.
func (c *checkedReader) stat() (fs.FileInfo, bool) {
	f, ok := c.rc.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return nil, false
	}
	fi, err := f.Stat()
	return fi, err == nil
}

func (c *checkedReader) changed(why string) error {
	return fmt.Errorf("reading %s: %w (%s)", c.name, ErrChanged, why)
}

// objectName is the object's URI for messages.
func objectName(st Store, key string) string {
	if l, ok := st.(*LocalStore); ok {
		return l.uri(key)
	}
	return st.String() + "/" + key
}
