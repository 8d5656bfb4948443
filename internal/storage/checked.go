package storage

import (
	"context"
	"fmt"
	"io"
	"io/fs"
)

// OpenChecked streams the version of an object that a listing described
// (its key, size and ETag) and fails with ErrChanged, naming the object,
// when the bytes turn out to belong to another version: the read ends
// after more or fewer bytes than size, or (a local file, whose ETag is
// its size and modification time) the file's ETag is not etag when it is
// opened or when its end is reached. Without this a file truncated
// between listing and reading, or while being read, gave a short result
// that looked complete. An empty etag skips the ETag comparison; a
// negative size skips the length check.
func OpenChecked(ctx context.Context, st Store, key string, size int64, etag string) (io.ReadCloser, error) {
	rc, err := st.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	c := &checkedReader{rc: rc, name: objectName(st, key), size: size, etag: etag}
	if err := c.checkETag(); err != nil {
		rc.Close()
		return nil, err
	}
	return c, nil
}

type checkedReader struct {
	rc   io.ReadCloser
	name string
	size int64
	etag string
	n    int64
	err  error
}

func (c *checkedReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.rc.Read(p)
	c.n += int64(n)
	if c.size >= 0 && c.n > c.size {
		c.err = c.changed(fmt.Sprintf("listed at %d bytes, more were read", c.size))
		return n, c.err
	}
	if err == io.EOF {
		if c.size >= 0 && c.n != c.size {
			c.err = c.changed(fmt.Sprintf("listed at %d bytes, %d were read", c.size, c.n))
			return n, c.err
		}
		if cerr := c.checkETag(); cerr != nil {
			c.err = cerr
			return n, cerr
		}
	}
	return n, err
}

func (c *checkedReader) Close() error { return c.rc.Close() }

// checkETag compares a local file's current ETag with the listed one.
// Other stores pin the version themselves (an S3 GET reads one version).
func (c *checkedReader) checkETag() error {
	if c.etag == "" {
		return nil
	}
	f, ok := c.rc.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil // nothing to compare; the read itself reports real faults
	}
	if got := localInfo("", fi).ETag; got != c.etag {
		return c.changed(fmt.Sprintf("size or modification time differs from the listing (%s, listed %s)", got, c.etag))
	}
	return nil
}

func (c *checkedReader) changed(why string) error {
	return fmt.Errorf("reading %s: %w: %s", c.name, ErrChanged, why)
}

// objectName is the object's URI for messages.
func objectName(st Store, key string) string {
	if l, ok := st.(*LocalStore); ok {
		return l.uri(key)
	}
	return st.String() + "/" + key
}
