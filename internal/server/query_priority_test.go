package server

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sluice/internal/stream"
)

// TestPriorityGate: with no epoch running, queries pass at once and side
// by side; while one runs, they pass one at a time, each after the
// epochs pause or priorityWait at most; a query whose client left while
// it waited gives up.
func TestPriorityGate(t *testing.T) {
	slots := stream.NewSemaphore(2)
	g := newPriorityGate(slots)
	ctx := context.Background()
	a, err := g.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a()
	b()

	slots <- struct{}{} // an epoch runs, and never pauses
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			leave, err := g.enter(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
			leave()
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d queries ran at once beside an epoch, want 1", most.Load())
	}

	hold, _ := g.enter(ctx) // takes the one turn
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := g.enter(cctx); done <- err }()
	cancel()
	if err := <-done; err == nil {
		t.Error("a query whose client left still entered")
	}
	hold()
	<-slots // the epoch ends: queries run freely again
	for range 2 {
		if _, err := g.enter(ctx); err != nil {
			t.Fatal(err)
		}
	}
}
