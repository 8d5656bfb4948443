package file

import (
	"bytes"
	"context"
	"io"
	"math"
	"sync"

	"sluice/internal/format"
	"sluice/internal/storage"
)

const (
	// defaultReadAhead is how many objects one scan fetches ahead of its
	// readers. The exec driver opens splits on GOMAXPROCS workers, which
	// against an object store's per-request latency (milliseconds) caps a
	// 2-core machine at a few hundred tiny objects a second; 16 requests
	// in flight hide that latency.
	defaultReadAhead = 16
	// readAheadMaxBytes is the largest object fetched ahead whole. Bigger
	// ones stream (their transfer time dwarfs the request latency), so
	// read-ahead never buffers more than about read_ahead * 4 MiB.
	readAheadMaxBytes = 4 << 20
	// Parquet is read by ranges (footer, then only the needed column
	// chunks), which a whole-object fetch would undo for all but small
	// files.
	readAheadMaxParquet = 1 << 20
)

// readAhead fetches whole small objects before their splits are opened,
// so one scan keeps up to window GETs in flight while the current objects
// decode. It serves the splits of one Plan call; Open takes each body at
// most once and falls back to a plain read when the fetch failed or was
// never made (a large object, a split opened out of order), so errors
// are always reported by the ordinary read path.
type readAhead struct {
	store  storage.Store
	keys   []string
	sizes  []int64
	window int
	// maxBytes is the largest object fetched ahead.
	maxBytes int64

	mu      sync.Mutex
	started int // fetches started for splits [0, started)
	fetches []*fetch
}

// fetch is one object body being read ahead.
type fetch struct {
	done chan struct{}
	data []byte
	err  error
}

// newReadAhead returns a read-ahead over files, or nil when it would not
// help: local files (no request latency), window 0, or a single file.
func newReadAhead(st storage.Store, files []fileEntry, window int, fmtName string) *readAhead {
	if window <= 0 || len(files) < 2 {
		return nil
	}
	if _, local := st.(*storage.LocalStore); local {
		return nil
	}
	ra := &readAhead{store: st, window: window, maxBytes: readAheadMaxBytes, fetches: make([]*fetch, len(files))}
	if fmtName == "parquet" {
		ra.maxBytes = readAheadMaxParquet
	}
	ra.keys = make([]string, len(files))
	ra.sizes = make([]int64, len(files))
	for i, f := range files {
		ra.keys[i], ra.sizes[i] = f.Key, f.Size
	}
	return ra
}

// skip keeps file i from being fetched ahead: it is read in parts.
func (ra *readAhead) skip(i int) {
	if ra != nil {
		ra.sizes[i] = math.MaxInt64
	}
}

// take returns the body of split i when it was read ahead, after
// starting the fetches of the next splits. ok is false when the caller
// should read the object itself.
func (ra *readAhead) take(ctx context.Context, i int) (data []byte, ok bool) {
	if i < 0 || i >= len(ra.fetches) {
		return nil, false
	}
	ra.mu.Lock()
	if ra.started <= i {
		// Splits before i were skipped (opened by someone else or not
		// at all): do not fetch them now.
		ra.started = i
	}
	for ; ra.started < len(ra.keys) && ra.started < i+ra.window; ra.started++ {
		j := ra.started
		if ra.sizes[j] > ra.maxBytes {
			continue
		}
		f := &fetch{done: make(chan struct{})}
		ra.fetches[j] = f
		// ctx is the scan's: when the scan ends or fails, fetches still
		// running are cancelled with it.
		go f.run(ctx, ra.store, ra.keys[j], ra.sizes[j])
	}
	f := ra.fetches[i]
	ra.fetches[i] = nil // taken: let the buffer go with the reader
	ra.mu.Unlock()
	if f == nil {
		return nil, false
	}
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, false
	}
	if f.err != nil || int64(len(f.data)) != ra.sizes[i] {
		// A failure or a changed object: the plain read path reports it
		// (or reads the new version) with its usual errors and retries.
		return nil, false
	}
	return f.data, true
}

func (f *fetch) run(ctx context.Context, st storage.Store, key string, size int64) {
	defer close(f.done)
	rc, err := st.Open(ctx, key)
	if err != nil {
		f.err = err
		return
	}
	defer rc.Close()
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(rc); err != nil {
		f.err = err
		return
	}
	f.data = buf.Bytes()
}

// splitFile is the format.File for a split: from memory when its body
// was read ahead, else streamed or ranged from the store.
func (s *Source) splitFile(ctx context.Context, sp *Split) format.File {
	if sp.ra != nil {
		if data, ok := sp.ra.take(ctx, sp.idx); ok {
			return format.File{
				Name: sp.URI,
				Size: int64(len(data)),
				Open: func(context.Context) (io.ReadCloser, error) {
					return io.NopCloser(bytes.NewReader(data)), nil
				},
				ReaderAt: func(context.Context) (io.ReaderAt, error) { return bytes.NewReader(data), nil },
			}
		}
	}
	f := formatFile(s.loc.store, sp.URI, sp.Key, sp.Bytes)
	f.Part = sp.Part
	if s.readAsIs {
		st, key := s.loc.store, sp.Key
		f.Open = func(ctx context.Context) (io.ReadCloser, error) { return storage.OpenChecked(ctx, st, key, -1) }
	}
	return f
}
