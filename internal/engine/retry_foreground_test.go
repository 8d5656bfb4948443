package engine

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sluice/internal/queue"
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// TestForegroundQueueRetry: a foreground stream whose queue cannot be
// reached (nothing listens on its NATS port) says so through Warn at
// each attempt and keeps retrying, not stopped by a stop marker left
// before it started; a STOP STREAM from another engine (another process)
// ends it, and Ctrl-C (ctx) ends another run with the queue's error.
func TestForegroundQueueRetry(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now
	var mu sync.Mutex
	var warnings []string
	warned := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), warnings...)
	}
	open := func(warn func(string)) *Engine {
		e, err := Open(Options{DataDir: filepath.Join(dir, "data"), RetryInitial: 20 * time.Millisecond, RetryMax: 100 * time.Millisecond, Warn: warn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	eng := open(func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() })
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	mustExec(t, eng, "CREATE TABLE src (id BIGINT) USING json LOCATION '"+in+"/'")
	mustExec(t, eng, "CREATE TABLE out (id BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'")
	cp := filepath.Join(dir, "cp")
	store, err := storage.NewLocalStore(cp)
	if err != nil {
		t.Fatal(err)
	}
	if err := (&stream.Checkpoint{Store: store}).RequestStop(context.Background()); err != nil {
		t.Fatal(err) // a stale stop request, from before the start
	}
	stmt := "INSERT STREAM INTO out SELECT id FROM src WITH (name = 'feed', trigger = '50 milliseconds', " +
		"discovery = 'notifications', queue = 'nats://sluice:s3cr3t@127.0.0.1:" + strconv.Itoa(port) + "/s3events/feed', checkpoint_location = '" + cp + "')"
	run := func(ctx context.Context) (<-chan error, <-chan *Result) {
		errc, resc := make(chan error, 1), make(chan *Result, 1)
		go func() {
			rs, err := eng.Execute(ctx, stmt)
			var r *Result
			if len(rs) > 0 {
				r = rs[len(rs)-1]
			}
			resc <- r
			errc <- err
		}()
		return errc, resc
	}
	waitWarnings := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); len(warned()) < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d warnings, want %d: %q", len(warned()), n, warned())
			}
		}
	}

	errc, resc := run(context.Background())
	waitWarnings(4)
	time.Sleep(1500 * time.Millisecond) // past a poll of the stop marker
	select {
	case err := <-errc:
		t.Fatalf("the stream ended (%v) while its queue was down", err)
	default:
	}
	w := warned()[0]
	if !strings.HasPrefix(w, "stream feed: ") || !strings.Contains(w, queue.ErrUnreachable.Error()) || !strings.Contains(w, "retrying in") {
		t.Errorf("warning %q: want the stream, queue unreachable and the next attempt", w)
	}
	if strings.Contains(strings.Join(warned(), "\n"), "s3cr3t") {
		t.Errorf("a warning shows the queue's password: %q", w)
	}
	other := open(nil)
	if _, err := other.Execute(context.Background(), "STOP STREAM feed"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if r := <-resc; err != nil || r == nil || !strings.Contains(r.Message, "stopped") {
			t.Fatalf("after STOP STREAM: %v, %+v", err, r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("STOP STREAM from another engine did not end the retrying stream")
	}

	ctx, cancel := context.WithCancel(context.Background())
	n := len(warned())
	errc, _ = run(ctx)
	waitWarnings(n + 2)
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, queue.ErrUnreachable) {
			t.Fatalf("after Ctrl-C: %v, want the queue's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling did not end the retrying stream")
	}
}
