package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// ObjectReaderAt gives random access to one object through ranged reads,
// one request per ReadAt. On S3 every read after the first carries
// If-Match with the first read's ETag: a replaced object gives ErrChanged
// instead of a footer from one version and pages from another. It also implements io.Seeker and io.Reader over
// the same bytes (what parquet.ReaderAtSeeker wants) and is safe for
// concurrent ReadAt calls.
type ObjectReaderAt struct {
	ctx   context.Context
	store Store
	key   string
	size  int64
	pos   int64 // for Read and Seek only

	mu   sync.Mutex
	etag string // pinned by the first read, on stores that support it
}

// etagRanger is a store that can pin ranged reads to one object version.
type etagRanger interface {
	openRangeMatch(ctx context.Context, key, etag string, offset, length int64) (io.ReadCloser, string, error)
}

var (
	_ io.ReaderAt   = (*ObjectReaderAt)(nil)
	_ io.ReadSeeker = (*ObjectReaderAt)(nil)
)

// ReaderAt returns random access to key, whose size the caller already
// knows from List or Stat (so no extra request is made). ctx bounds every
// read.
//
//	ra := storage.ReaderAt(ctx, st, o.Key, o.Size)
//	pf, err := file.NewParquetReader(ra)
func ReaderAt(ctx context.Context, store Store, key string, size int64) *ObjectReaderAt {
	return &ObjectReaderAt{ctx: ctx, store: store, key: key, size: size}
}

// Size returns the object size given to ReaderAt.
func (r *ObjectReaderAt) Size() int64 { return r.size }

// ReadAt reads len(p) bytes at off; it returns io.EOF with a short count
// only at the end of the object.
func (r *ObjectReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("reading %s/%s: negative offset %d", r.store, r.key, off)
	}
	if off >= r.size {
		return 0, io.EOF
	}
	want := int64(len(p))
	if want == 0 {
		return 0, nil
	}
	if rem := r.size - off; want > rem {
		want = rem
	}
	rc, err := r.openRange(off, want)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	n, err := io.ReadFull(rc, p[:want])
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			// The object is shorter than the size we were told: it changed.
			return n, fmt.Errorf("reading %s/%s at %d: object shorter than %d bytes: %w", r.store, r.key, off, r.size, ErrChanged)
		}
		return n, fmt.Errorf("reading %s/%s at %d: %w", r.store, r.key, off, err)
	}
	if int64(n) < int64(len(p)) {
		return n, io.EOF
	}
	return n, nil
}

// openRange reads through the store, pinning the ETag where it can so a
// Parquet footer and its row groups come from the same version.
func (r *ObjectReaderAt) openRange(off, n int64) (io.ReadCloser, error) {
	er, ok := r.store.(etagRanger)
	if !ok {
		return r.store.OpenRange(r.ctx, r.key, off, n)
	}
	r.mu.Lock()
	etag := r.etag
	r.mu.Unlock()
	rc, got, err := er.openRangeMatch(r.ctx, r.key, etag, off, n)
	if err != nil {
		return nil, err
	}
	if etag == "" {
		r.mu.Lock()
		if r.etag == "" {
			r.etag = got
		}
		r.mu.Unlock()
	}
	return rc, nil
}

// Read reads from the current Seek position.
func (r *ObjectReaderAt) Read(p []byte) (int, error) {
	n, err := r.ReadAt(p, r.pos)
	r.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// Seek moves the position used by Read.
func (r *ObjectReaderAt) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.pos
	case io.SeekEnd:
		offset += r.size
	default:
		return 0, fmt.Errorf("seek %s/%s: bad whence %d", r.store, r.key, whence)
	}
	if offset < 0 {
		return 0, fmt.Errorf("seek %s/%s: negative position %d", r.store, r.key, offset)
	}
	r.pos = offset
	return offset, nil
}
