package file

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// WaitArrival ends when an object's event comes, keeps the message for
// the next Latest, and times out (false) when nothing comes; a listing
// source says at once that it cannot wait.
func TestWaitArrival(t *testing.T) {
	r := newNotifyRig(t, "5s")
	ss := r.source(map[string]string{"discovery_backfill": "false"}, -1)
	defer ss.Close()
	ctx := context.Background()
	if off, keys := latestKeys(t, ss); off != nil {
		t.Fatalf("an empty queue gave %v", keys)
	}
	t0 := time.Now()
	if ss.WaitArrival(ctx, 200*time.Millisecond) {
		t.Fatal("an empty queue reported an arrival")
	}
	if d := time.Since(t0); d < 150*time.Millisecond {
		t.Fatalf("the wait ended after %v with nothing there", d)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		r.put("lake", "in/a.json")
	}()
	if !ss.WaitArrival(ctx, 20*time.Second) {
		t.Fatal("the event did not end the wait")
	}
	// Kept, not yet read: a second wait returns at once.
	if !ss.WaitArrival(ctx, time.Millisecond) {
		t.Fatal("the kept message was not ready")
	}
	off, keys := latestKeys(t, ss)
	if fmt.Sprint(keys) != "[in/a.json]" {
		t.Fatalf("after the arrival Latest gave %v", keys)
	}
	st, _ := ss.NotifyStats()
	if st.Files != 1 {
		t.Fatalf("files counted %d, want 1: %+v", st.Files, st)
	}

	// Planned but not committed: the file still waits for its epoch.
	if !ss.WaitArrival(ctx, time.Second) {
		t.Fatal("a pending file did not end the wait")
	}
	if err := ss.Commit(ctx, 0, off); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	if ss.WaitArrival(ctx, time.Second) {
		t.Fatal("a cancelled wait on an empty queue reported an arrival")
	}

	listing := r.source(map[string]string{"discovery": "listing"}, -1)
	defer listing.Close()
	t0 = time.Now()
	if listing.WaitArrival(context.Background(), time.Second) || time.Since(t0) > 100*time.Millisecond {
		t.Fatal("a listing source waited")
	}
}
