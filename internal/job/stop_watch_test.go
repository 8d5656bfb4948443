package job

import (
	"context"
	"testing"
	"time"

	"sluice/internal/storage"
	"sluice/internal/stream"
)

// TestWatchStopMarker: a worker whose source has no stop signal
// (an SQS or Kafka queue) stops on a stop marker written at the top of
// the checkpoint after it started, and not on one left from before.
func TestWatchStopMarker(t *testing.T) {
	defer func(d time.Duration) { stopPoll = d }(stopPoll)
	stopPoll = 20 * time.Millisecond
	ctx := context.Background()
	store, err := storage.NewLocalStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	base := &stream.Checkpoint{Store: store, Prefix: "cp/"}
	if err := base.RequestStop(ctx); err != nil { // stale: before the worker started
		t.Fatal(err)
	}
	rs := NewRun(Status{}, nil)
	defer rs.Finish()
	cancel := WatchStop(ctx, rs, base, nil)
	defer cancel()
	select {
	case <-rs.Stopping():
		t.Fatal("a stop request from before the worker started stopped it")
	case <-time.After(200 * time.Millisecond):
	}
	if err := base.RequestStop(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rs.Stopping():
	case <-time.After(2 * time.Second):
		t.Fatal("a stop request after the worker started did not stop it")
	}
}

// TestWatchStopDuringRetry: a STOP STREAM sent while a worker
// waited to retry (no watch running) stops the retry once it starts.
func TestWatchStopDuringRetry(t *testing.T) {
	defer func(d time.Duration) { stopPoll = d }(stopPoll)
	stopPoll = 20 * time.Millisecond
	ctx := context.Background()
	store, err := storage.NewLocalStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	base := &stream.Checkpoint{Store: store, Prefix: "cp/"}
	first := NewRun(Status{}, nil)
	cancel := WatchStop(ctx, first, base, nil)
	cancel()
	first.Finish() // it failed; the retry waits
	if err := base.RequestStop(ctx); err != nil {
		t.Fatal(err)
	}
	retry := NewRun(Status{}, nil)
	defer retry.Finish()
	cancel = WatchStop(withRetryOf(ctx, first), retry, base, nil)
	defer cancel()
	select {
	case <-retry.Stopping():
	case <-time.After(2 * time.Second):
		t.Fatal("a stop sent during the retry's backoff did not stop the retry")
	}
}
