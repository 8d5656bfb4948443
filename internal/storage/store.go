// Package storage puts every object store Sluice reads from or writes to
// behind one small interface: local files, S3 and S3-compatible stores,
// and an in-memory store for tests.
//
//	st, prefix, _ := storage.Resolve(ctx, "file:///var/logs/http/", storage.Options{})
//	_ = st.List(ctx, prefix, "", func(o storage.ObjectInfo) error {
//		fmt.Println(o.Key, o.Size)
//		return nil
//	})
package storage

import (
	"context"
	"errors"
	"io"
	"time"
)

// Sentinel errors. Implementations wrap them so callers test with errors.Is.
var (
	// ErrNotFound: the key (or bucket) does not exist.
	ErrNotFound = errors.New("object not found")
	// ErrExists: Put with ifAbsent found the key already there.
	ErrExists = errors.New("object already exists")
	// ErrAccessDenied: the credentials are refused.
	ErrAccessDenied = errors.New("access denied")
	// ErrConditionalUnsupported: the store ignores conditional writes, so
	// exclusive Put cannot be guaranteed.
	ErrConditionalUnsupported = errors.New("store does not support conditional writes")
	// ErrChanged: the object was replaced while being read (a resumed or
	// ranged read found another ETag or size), so the bytes so far belong
	// to an older version. Re-plan from a fresh listing.
	ErrChanged = errors.New("file changed while being read")
)

// ObjectInfo describes one object. Key is relative to the store root and
// uses '/' separators on every platform.
type ObjectInfo struct {
	Key  string
	Size int64
	// ETag is opaque: compare it for equality only. S3 gives its quoted
	// ETag, the local store "<size hex>-<mtime ns hex>", memory an MD5.
	ETag    string
	ModTime time.Time
}

// Store is an object store.
//
// Keys are '/'-separated and never start with '/'. Listing is in
// lexicographic key order, which is what makes StartAfter resumable.
// Implementations are safe for concurrent use.
type Store interface {
	// List calls fn for each object whose key starts with prefix and sorts
	// after startAfter (all of them when startAfter is ""), in key order.
	// Returning an error from fn stops the listing and List returns it.
	// Only a bounded page of entries is held in memory at a time.
	// Hidden objects are skipped: those with a key segment below the
	// prefix's directory that starts with '.' or '_' (temp files,
	// _SUCCESS markers, _temporary dirs), unless the prefix itself names
	// one ("dir/_SUCCESS"). Stat and Open reach them directly.
	List(ctx context.Context, prefix, startAfter string, fn func(ObjectInfo) error) error
	// Stat returns the object's metadata or ErrNotFound.
	Stat(ctx context.Context, key string) (ObjectInfo, error)
	// Open streams the object from its start.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// OpenRange streams length bytes from offset (length < 0: to the end).
	OpenRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error)
	// Put writes the object atomically: readers see the old object or the
	// whole new one, never a part. With ifAbsent it fails with ErrExists if
	// the key is already there, and exactly one of two racing writers wins.
	Put(ctx context.Context, key string, data io.Reader, ifAbsent bool) error
	// Delete removes the object; a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// String names the store for messages, e.g. "file:///data" or
	// "s3://bucket". It never contains credentials.
	String() string
}
