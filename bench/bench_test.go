package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sluice/bench/gen"
	"sluice/bench/runner"
	"sluice/internal/engine"
)

// benchRows is the data set size of the Go benchmarks: big enough that
// per-query overhead does not dominate, small enough to generate in a
// couple of seconds.
const benchRows = 200_000

var shared struct {
	once sync.Once
	dir  string
	m    *gen.Manifest
	err  error
}

// sharedData generates the benchmark data set once per test binary.
func sharedData(tb testing.TB) (string, *gen.Manifest) {
	tb.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "sluice-bench-data-")
		if shared.err == nil {
			shared.m, shared.err = gen.Generate(context.Background(),
				gen.Options{Dir: shared.dir, Rows: benchRows, Files: 4, Seed: 1})
		}
	})
	if shared.err != nil {
		tb.Fatalf("generating data: %v", shared.err)
	}
	return shared.dir, shared.m
}

func TestMain(m *testing.M) {
	if os.Getenv(serveChildEnv) == "1" {
		os.Exit(runServeChild()) // TestBenchServe's server
	}
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// BenchmarkQueries runs Q1 and Q2 over each layout; b.SetBytes makes
// "MB/s" the on-disk input rate, comparable with BENCHMARKS.md.
func BenchmarkQueries(b *testing.B) {
	dir, m := sharedData(b)
	eng, err := engine.Open(engine.Options{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	for _, layout := range gen.Layouts {
		ddl, err := runner.CreateTableSQL(layout, dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Execute(ctx, ddl); err != nil {
			b.Fatalf("%s: %v", ddl, err)
		}
		for _, q := range runner.Queries[:2] {
			sql := q.Text(runner.TableName(layout))
			b.Run(layout+"/"+q.ID, func(b *testing.B) {
				b.SetBytes(m.Layouts[layout].Bytes)
				for b.Loop() {
					res, err := eng.Execute(ctx, sql)
					if err != nil {
						b.Fatalf("%s: %v", sql, err)
					}
					for _, r := range res {
						for _, batch := range r.Batches {
							batch.Release()
						}
					}
				}
				b.ReportMetric(float64(m.Rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

// TestCommands runs "bench gen" and "bench run" end to end on a small data
// set and checks every query succeeds and the layouts agree.
func TestCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var out strings.Builder
	if err := cmdGen(ctx, []string{"--rows", "3000", "--files", "2", "--out", dir, "--seed", "9"}, &out); err != nil {
		t.Fatalf("gen: %v", err)
	}
	if !strings.Contains(out.String(), "3000 rows in 2 files") {
		t.Errorf("gen output: %s", out.String())
	}

	prof := filepath.Join(dir, "cpu.pprof")
	var js, log strings.Builder
	if err := cmdRun(ctx, []string{"--data", dir, "--repeat", "1", "--json", "--cpuprofile", prof}, &js, &log); err != nil {
		t.Fatalf("run --json: %v", err)
	}
	var rep runner.Report
	if err := json.Unmarshal([]byte(js.String()), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, js.String())
	}
	if want := len(gen.Layouts) * len(runner.Queries); len(rep.Results) != want {
		t.Errorf("%d results, want %d", len(rep.Results), want)
	}
	for _, r := range rep.Results {
		if r.Error != "" {
			t.Errorf("%s %s: %s", r.Layout, r.Query, r.Error)
		} else if r.InputRows != 3000 || r.Best <= 0 || r.ResultRows == 0 {
			t.Errorf("%s %s: %+v", r.Layout, r.Query, r)
		}
	}
	for _, d := range rep.Disagreements() {
		t.Error(d)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("no CPU profile written: %v", err)
	}

	var text strings.Builder
	log.Reset()
	if err := cmdRun(ctx, []string{"--data", dir, "--repeat", "2", "--format", "parquet,csv", "--query", "q1"}, &text, &log); err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := strings.Count(text.String(), "scan-filter-count"); got != 2 || strings.Contains(text.String(), "FAILED") {
		t.Errorf("text report:\n%s", text.String())
	}
	if got := strings.Count(log.String(), "\n"); got != 2 {
		t.Errorf("progress log has %d lines:\n%s", got, log.String())
	}
}

func TestBadArgs(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"gen"},
		{"gen", "--out", t.TempDir()},
		{"gen", "--out", t.TempDir(), "--rows", "10", "--size", "1MB"},
		{"gen", "--out", t.TempDir(), "--size", "big"},
		{"run"},
		{"run", "--data", t.TempDir()},
		{"run", "--data", t.TempDir(), "--format", "xml"},
		{"run", "--data", t.TempDir(), "--query", "Q9"},
	} {
		if err := run(context.Background(), args); err == nil {
			t.Errorf("bench %v succeeded", args)
		}
	}
}
