package file

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"sluice/internal/storage"
)

// slowStore delays every Open and records how many bodies are being
// fetched at once, like an object store with per-request latency.
type slowStore struct {
	storage.Store
	delay             time.Duration
	inflight, maxSeen atomic.Int64
	opens             atomic.Int64
}

func (s *slowStore) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	s.opens.Add(1)
	n := s.inflight.Add(1)
	defer s.inflight.Add(-1)
	for {
		m := s.maxSeen.Load()
		if n <= m || s.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.Store.Open(ctx, key)
}

func TestReadAhead(t *testing.T) {
	ctx := context.Background()
	mem := storage.NewMemStore("ra")
	var files []fileEntry
	for i := 0; i < 40; i++ {
		key := fmt.Sprintf("k%02d.json", i)
		data := []byte(fmt.Sprintf("{\"i\": %d}\n", i))
		if err := mem.Put(ctx, key, bytes.NewReader(data), false); err != nil {
			t.Fatal(err)
		}
		files = append(files, fileEntry{Key: key, Size: int64(len(data))})
	}
	// One too large to fetch ahead.
	files[5].Size = readAheadMaxBytes + 1

	for _, c := range []struct {
		window    int
		wantMax   int64
		wantNil   bool
		wantTaken int
	}{
		{window: 0, wantNil: true},
		{window: 1, wantMax: 1, wantTaken: 39},
		{window: 8, wantMax: 8, wantTaken: 39},
	} {
		t.Run(fmt.Sprint("window", c.window), func(t *testing.T) {
			st := &slowStore{Store: mem, delay: 5 * time.Millisecond}
			ra := newReadAhead(st, files, c.window, "json")
			if c.wantNil {
				if ra != nil {
					t.Fatal("read-ahead with window 0")
				}
				return
			}
			taken := 0
			start := time.Now()
			for i := range files {
				data, ok := ra.take(ctx, i)
				if !ok {
					if i != 5 {
						t.Errorf("split %d not read ahead", i)
					}
					continue
				}
				taken++
				if want := fmt.Sprintf("{\"i\": %d}\n", i); string(data) != want {
					t.Errorf("split %d: %q, want %q", i, data, want)
				}
				if _, again := ra.take(ctx, i); again {
					t.Errorf("split %d taken twice", i)
				}
			}
			if taken != c.wantTaken {
				t.Errorf("%d bodies read ahead, want %d", taken, c.wantTaken)
			}
			if got := st.maxSeen.Load(); got > c.wantMax || (c.window > 1 && got < 2) {
				t.Errorf("%d fetches in flight at once, want at most %d (and more than 1)", got, c.wantMax)
			}
			if got := st.opens.Load(); got != 39 {
				t.Errorf("%d opens, want 39: nothing fetched twice or too large", got)
			}
			t.Logf("window %d: %v", c.window, time.Since(start))
		})
	}
}

// TestReadAheadSkipsLocal: local files have no request latency to hide.
func TestReadAheadSkipsLocal(t *testing.T) {
	st, err := storage.NewLocalStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if ra := newReadAhead(st, []fileEntry{{Key: "a"}, {Key: "b"}}, 16, "json"); ra != nil {
		t.Error("read-ahead over a local store")
	}
}

// TestReadAheadCancel: a cancelled scan stops waiting and its fetches.
func TestReadAheadCancel(t *testing.T) {
	mem := storage.NewMemStore("ra-cancel")
	ctx, cancel := context.WithCancel(context.Background())
	files := []fileEntry{{Key: "a", Size: 1}, {Key: "b", Size: 1}}
	for _, f := range files {
		mem.Put(context.Background(), f.Key, bytes.NewReader([]byte("x")), false)
	}
	st := &slowStore{Store: mem, delay: time.Hour}
	ra := newReadAhead(st, files, 4, "json")
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, ok := ra.take(ctx, 0); ok {
		t.Error("take succeeded after cancel")
	}
}
