package server

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"sluice/internal/served"
)

// TestServedRecord: a listening server records its actual URL and PID
// beside the data dir lock, for a `sluice sql` on the same data dir, and
// takes it away when it stops listening.
func TestServedRecord(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	srv, err := Open(Options{DataDir: data, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(5 * time.Second) })
	if _, ok := served.Lookup(data); ok {
		t.Fatal("a record before the server listens")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	want := served.Record{URL: "http://" + ln.Addr().String(), PID: os.Getpid()}
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, ok := served.Lookup(data)
		if ok {
			if r != want {
				t.Fatalf("record %+v, want %+v", r, want)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no record while the server listens")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, ok := served.Lookup(data); ok {
		t.Fatal("the record outlived the listener")
	}
}
