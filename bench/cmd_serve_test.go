package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"sluice/bench/serve"
)

// serveChildEnv makes the test binary the server TestBenchServe measures
// (TestMain runs "serve --child ..." instead of the tests).
const serveChildEnv = "SLUICE_BENCH_SERVE_CHILD"

func runServeChild() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench serve child:", err)
		return 1
	}
	return 0
}

// TestBenchServe runs bench serve at a tiny size: every figure is there
// and no query failed.
func TestBenchServe(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(serveChildEnv, "1")
	rep, err := serve.Run(context.Background(), serve.Options{Dir: t.TempDir(), Self: self, ChildArgs: []string{"serve", "--child"},
		Duration: 300 * time.Millisecond, Clients: []int{1, 4}, Streams: 2, StreamRows: 2000, StreamFiles: 2, LoadClients: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Latency) != 2 || len(rep.Throughput) != 2 || rep.RSSIdleMB <= 0 || rep.RSSStreamsMB <= 0 {
		t.Fatalf("incomplete report: %+v", rep)
	}
	for _, l := range rep.Latency {
		if l.Queries == 0 || l.Errors != 0 || l.P99ms < l.P50ms {
			t.Errorf("latency at %d clients: %+v", l.Clients, l)
		}
	}
	for _, tp := range rep.Throughput {
		if tp.Rows != 2000 || tp.RowsPerSec <= 0 || tp.Errors != 0 {
			t.Errorf("throughput %s: %+v", tp.Load, tp)
		}
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "p99 ms") {
		t.Errorf("text report: %v\n%s", err, b.String())
	}
}
