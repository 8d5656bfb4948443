package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"time"

	"sluice/bench/serve"
	"sluice/internal/server"
)

// cmdServe runs "bench serve": it starts this executable again as the
// server ("bench serve --child ...", so the RSS measured is the server's
// alone) and measures it from here.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	dir := fs.String("dir", "", "working directory for the data and the server's data dir (default: a temporary one, removed after)")
	duration := fs.Duration("duration", 10*time.Second, "how long each concurrency level runs")
	clients := fs.String("clients", "1,16,64", "concurrency levels of the latency runs")
	streams := fs.Int("streams", 20, "streams running for the memory figure")
	rows := fs.Int("stream-rows", 400000, "rows of the throughput stream's input")
	files := fs.Int("stream-files", 40, "files of the throughput stream's input (one per epoch)")
	load := fs.Int("load-clients", 64, "clients querying during the loaded throughput run")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	child := fs.Bool("child", false, "internal: serve (--data-dir, --listen) instead of measuring")
	dataDir := fs.String("data-dir", "", "internal: the child's data dir")
	listen := fs.String("listen", "", "internal: the child's listen address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *child {
		return serveChild(ctx, *dataDir, *listen)
	}
	var levels []int
	for _, s := range splitList(*clients) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return fmt.Errorf("serve: --clients %q: want positive numbers", *clients)
		}
		levels = append(levels, n)
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "sluice-bench-serve-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	o := serve.Options{Dir: *dir, Self: self, ChildArgs: []string{"serve", "--child"}, Duration: *duration, Clients: levels,
		Streams: *streams, StreamRows: *rows, StreamFiles: *files, LoadClients: *load}
	if !*asJSON {
		o.Log = stderr
	}
	rep, err := serve.Run(ctx, o)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if *asJSON {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteText(stdout)
}

// serveChild is the measured server: `sluice serve` with its logs off
// (a log line per epoch and request would be measured too).
func serveChild(ctx context.Context, dataDir, listen string) error {
	srv, err := server.Open(server.Options{DataDir: dataDir, Listen: listen, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	serveErr := srv.ListenAndServe(ctx)
	if err := srv.Close(30 * time.Second); err != nil && serveErr == nil {
		serveErr = err
	}
	return serveErr
}
