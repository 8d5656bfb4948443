package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sluice/internal/stream"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchInputs writes files of rows JSON lines each and returns the bytes.
func benchInputs(b *testing.B, dir string, from, files, rows int) int64 {
	b.Helper()
	var total int64
	for f := from; f < from+files; f++ {
		var sb strings.Builder
		for r := 0; r < rows; r++ {
			id := f*rows + r
			fmt.Fprintf(&sb, "{\"id\": %d, \"ts\": \"2026-11-30T00:00:%02dZ\", \"status\": %d, \"path\": \"/api/v1/items/%d\", \"bytes\": %d}\n", id, id%60, 200+id%4*100, id%1000, id*7%65536)
		}
		p := filepath.Join(dir, fmt.Sprintf("f%06d.json", f))
		if err := os.WriteFile(p+".tmp", []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		// Land atomically, as a producer should: a half-written file is
		// not a file yet.
		if err := os.Rename(p+".tmp", p); err != nil {
			b.Fatal(err)
		}
		total += int64(sb.Len())
	}
	return total
}

func benchEngine(b *testing.B, dir string, progress func(stream.Progress)) *Engine {
	b.Helper()
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), StreamProgress: progress})
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT, ts TIMESTAMP, status INT, path STRING, bytes BIGINT) USING json LOCATION '" + filepath.Join(dir, "in") + "/' OPTIONS (path_glob_filter '*.json')",
		"CREATE TABLE out (id BIGINT, ts TIMESTAMP, status INT, path STRING, bytes BIGINT) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
	} {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
	return eng
}

// BenchmarkStreamPassThrough streams a JSON backlog into Parquet in
// rate-limited epochs (available_now) and reports rows/s and MB/s of
// input per core (CPU time, so the figure does not depend on how busy the
// machine's other cores are) and per wall second.
func BenchmarkStreamPassThrough(b *testing.B) {
	const files, rows = 40, 25_000
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
			b.Fatal(err)
		}
		size := benchInputs(b, filepath.Join(dir, "in"), 0, files, rows)
		eng := benchEngine(b, dir, nil)
		b.StartTimer()
		c0, t0 := cpuTime(), time.Now()
		_, err := eng.Execute(context.Background(), "INSERT STREAM INTO out SELECT * FROM src WITH (name = 'pass', trigger = 'available_now', max_files_per_trigger = 4)")
		cpu, wall := cpuTime()-c0, time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		eng.Close()
		n := float64(files * rows)
		b.ReportMetric(n/cpu.Seconds(), "rows/cpu-s")
		b.ReportMetric(float64(size)/(1<<20)/cpu.Seconds(), "MB/cpu-s")
		b.ReportMetric(n/wall.Seconds(), "rows/s")
		b.ReportMetric(float64(size)/(1<<20)/wall.Seconds(), "MB/s")
	}
}

// BenchmarkStreamFreshness lands one file every 150 ms into a stream with
// a 1 second trigger and measures, per file, the time from its landing to
// the commit of the epoch that wrote its rows.
func BenchmarkStreamFreshness(b *testing.B) {
	const files, rows = 40, 1000
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		in := filepath.Join(dir, "in")
		if err := os.MkdirAll(in, 0o755); err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		landed := make([]time.Time, 0, files)
		var lat []time.Duration
		var rowsOut int64
		var eng *Engine
		eng = benchEngine(b, dir, func(p stream.Progress) {
			now := time.Now()
			mu.Lock()
			defer mu.Unlock()
			before := rowsOut / rows
			rowsOut += p.RowsOut
			for f := before; f < rowsOut/rows; f++ {
				lat = append(lat, now.Sub(landed[f]))
			}
			if rowsOut == files*rows {
				go eng.Execute(context.Background(), "STOP STREAM fresh")
			}
		})
		done := make(chan error, 1)
		go func() {
			_, err := eng.Execute(context.Background(), "INSERT STREAM INTO out SELECT * FROM src WITH (name = 'fresh', trigger = '1 second')")
			done <- err
		}()
		for f := 0; f < files; f++ {
			time.Sleep(150 * time.Millisecond)
			mu.Lock()
			landed = append(landed, time.Now())
			mu.Unlock()
			benchInputs(b, in, f, 1, rows)
		}
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		eng.Close()
		if len(lat) != files {
			b.Fatalf("measured %d files of %d", len(lat), files)
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Milliseconds()), "p99-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Milliseconds()), "max-ms")
	}
}
