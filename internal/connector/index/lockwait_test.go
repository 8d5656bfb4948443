package index_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"sluice/internal/connector"
	"sluice/internal/connector/index"
	"sluice/internal/lockwait"
)

// TestOpenHeldIndexSaysSoAndStops: an index another process has open
// (here another handle, which bolt's flock treats the same) makes a
// writer wait with a word on what it waits for, and the wait ends with
// its context instead of blocking in flock for good.
func TestOpenHeldIndexSaysSoAndStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idx")
	spec := writeIndex(t, path)
	held, err := bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	var mu sync.Mutex
	var said []string
	defer lockwait.SetNotify(func(m string) { mu.Lock(); said = append(said, m); mu.Unlock() })()
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err = index.NewSink(ctx, spec, connector.SinkOptions{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("NewSink on a held index: %v", err)
	}
	if d := time.Since(t0); d > 2500*time.Millisecond {
		t.Fatalf("took %s to give up", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(said) != 1 || !strings.Contains(said[0], "waiting for the local index") {
		t.Fatalf("said %q", said)
	}
}
