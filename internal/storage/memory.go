package storage

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// memPage bounds how many entries List copies out under the lock, so fn
// runs unlocked (it may Put or Delete) and memory stays bounded.
const memPage = 1000

// MemStore is an in-memory Store for tests. It follows LocalStore's
// semantics, including List skipping keys with a segment that starts with
// '.' or '_' below the prefix's directory. ETag is the hex MD5 of the
// content, as S3 gives for single-part uploads.
type MemStore struct {
	name string

	mu   sync.RWMutex
	keys []string // sorted
	objs map[string]memObject
}

type memObject struct {
	data    []byte
	etag    string
	modTime time.Time
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty store; name appears in String() as
// "mem://name".
func NewMemStore(name string) *MemStore {
	return &MemStore{name: name, objs: map[string]memObject{}}
}

// String returns "mem://name".
func (m *MemStore) String() string { return "mem://" + m.name }

func (m *MemStore) uri(key string) string { return "mem://" + m.name + "/" + key }

// List copies out up to memPage entries at a time and resumes after the
// last one, so concurrent writes are seen or not, never half-seen.
func (m *MemStore) List(ctx context.Context, prefix, startAfter string, fn func(ObjectInfo) error) error {
	dirKey := ""
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirKey = prefix[:i+1]
	}
	cursor := startAfter
	if cursor < prefix {
		// Every match is >= prefix; starting there skips the rest cheaply.
		cursor = ""
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		page := make([]ObjectInfo, 0, 64)
		m.mu.RLock()
		var i int
		if cursor == "" {
			i = sort.SearchStrings(m.keys, prefix)
		} else {
			i = sort.Search(len(m.keys), func(j int) bool { return m.keys[j] > cursor })
		}
		for ; i < len(m.keys) && len(page) < memPage; i++ {
			k := m.keys[i]
			if !strings.HasPrefix(k, prefix) {
				break
			}
			cursor = k
			if memHidden(k[len(dirKey):], prefix[len(dirKey):]) {
				continue
			}
			o := m.objs[k]
			page = append(page, ObjectInfo{Key: k, Size: int64(len(o.data)), ETag: o.etag, ModTime: o.modTime})
		}
		more := i < len(m.keys) && strings.HasPrefix(m.keys[i], prefix)
		m.mu.RUnlock()
		for _, o := range page {
			if err := fn(o); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
	}
}

// memHidden mirrors LocalStore: rel is the key below the prefix's
// directory; its first segment may be hidden only if the prefix names a
// hidden entry, deeper segments never.
func memHidden(rel, namePart string) bool {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, tempPrefix) {
			return true
		}
		if i == 0 && hidden(namePart) {
			continue
		}
		if hidden(s) {
			return true
		}
	}
	return false
}

// Stat returns the object's metadata or ErrNotFound.
func (m *MemStore) Stat(ctx context.Context, key string) (ObjectInfo, error) {
	m.mu.RLock()
	o, ok := m.objs[key]
	m.mu.RUnlock()
	if !ok {
		return ObjectInfo{}, fmt.Errorf("stat %s: %w", m.uri(key), ErrNotFound)
	}
	return ObjectInfo{Key: key, Size: int64(len(o.data)), ETag: o.etag, ModTime: o.modTime}, nil
}

// Open streams the object from its start.
func (m *MemStore) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	return m.OpenRange(ctx, key, 0, -1)
}

// OpenRange reads a slice of the object; the bytes are never modified in
// place (Put replaces them), so no copy is needed.
func (m *MemStore) OpenRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	if offset < 0 {
		return nil, fmt.Errorf("reading %s: negative offset %d", m.uri(key), offset)
	}
	m.mu.RLock()
	o, ok := m.objs[key]
	m.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("reading %s: %w", m.uri(key), ErrNotFound)
	}
	data := o.data
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	data = data[offset:]
	if length >= 0 && length < int64(len(data)) {
		data = data[:length]
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

// Put reads all of data, then swaps the object in under the lock.
func (m *MemStore) Put(ctx context.Context, key string, data io.Reader, ifAbsent bool) error {
	if err := checkKey(key); err != nil {
		return fmt.Errorf("writing %s: %w", m, err)
	}
	b, err := io.ReadAll(ctxReader{ctx: ctx, r: data})
	if err != nil {
		return fmt.Errorf("writing %s: %w", m.uri(key), err)
	}
	sum := md5.Sum(b)
	obj := memObject{data: b, etag: hex.EncodeToString(sum[:]), modTime: time.Now()}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.objs[key]; ok {
		if ifAbsent {
			return fmt.Errorf("writing %s: %w", m.uri(key), ErrExists)
		}
	} else {
		i := sort.SearchStrings(m.keys, key)
		m.keys = append(m.keys, "")
		copy(m.keys[i+1:], m.keys[i:])
		m.keys[i] = key
	}
	m.objs[key] = obj
	return nil
}

// SetModTime changes an object's modification time, so tests of
// age-based rules (max_file_age) need not wait on the wall clock. A
// missing key is not an error.
func (m *MemStore) SetModTime(key string, t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o, ok := m.objs[key]; ok {
		o.modTime = t
		m.objs[key] = o
	}
}

// Delete removes the object; a missing key is not an error.
func (m *MemStore) Delete(ctx context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.objs[key]; !ok {
		return nil
	}
	delete(m.objs, key)
	i := sort.SearchStrings(m.keys, key)
	m.keys = append(m.keys[:i], m.keys[i+1:]...)
	return nil
}
