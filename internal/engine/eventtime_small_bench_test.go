package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sluice/internal/stream"
)

// BenchmarkEventTimeSmallEpochs is issue 14's workload: many small epochs
// (one 10,000-row file each) into a 1-minute tumbling aggregate whose
// 30-minute watermark delay keeps ~30 windows (~30,000 groups) open, in
// update mode into JSON. Each epoch touches two or three windows, so its
// state write should not grow with the open ones. ms/epoch is wall time
// per epoch, state-KB/epoch what the checkpoint's state folder received
// per epoch (every file written there, summed), alloc-MB/epoch the Go
// heap allocated per epoch.
func BenchmarkEventTimeSmallEpochs(b *testing.B) {
	const files, rows = 40, 10000
	dir := b.TempDir()
	in := filepath.Join(dir, "in")
	etBenchInputs(b, in, files, rows)
	for i := 0; i < b.N; i++ {
		run, err := os.MkdirTemp(dir, "run")
		if err != nil {
			b.Fatal(err)
		}
		var epochs int
		var out int64
		eng, err := Open(Options{DataDir: filepath.Join(run, "data"), StreamProgress: func(p stream.Progress) { epochs++; out += p.RowsOut }})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for _, q := range []string{
			"CREATE TABLE src (id BIGINT, ts TIMESTAMP, status INT, path STRING, bytes BIGINT, WATERMARK FOR ts AS ts - INTERVAL 30 MINUTES) USING json LOCATION '" + in + "/'",
			"CREATE TABLE out (w TIMESTAMP, status INT, path STRING, n BIGINT, b BIGINT) USING json LOCATION '" + filepath.Join(run, "out") + "/'"} {
			if _, err := eng.Execute(ctx, q); err != nil {
				b.Fatalf("%s: %v", q, err)
			}
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		cpu0, t0 := cpuTime(), time.Now()
		if _, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT TUMBLE(ts, '1 minute').start, status, path, count(*), sum(bytes) FROM src GROUP BY TUMBLE(ts, '1 minute'), status, path WITH (trigger = 'available_now', max_files_per_trigger = 1, output_mode = 'update')"); err != nil {
			b.Fatal(err)
		}
		cpu, wall := cpuTime()-cpu0, time.Since(t0)
		runtime.ReadMemStats(&m1)
		if out == 0 || epochs == 0 {
			b.Fatalf("wrote %d rows in %d epochs", out, epochs)
		}
		var state int64
		_ = filepath.WalkDir(filepath.Join(run, "data"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(p), "/state/") {
				if fi, err := d.Info(); err == nil {
					state += fi.Size()
				}
			}
			return nil
		})
		b.ReportMetric(float64(epochs), "epochs")
		b.ReportMetric(float64(wall.Milliseconds())/float64(epochs), "ms/epoch")
		b.ReportMetric(float64(cpu.Milliseconds())/float64(epochs), "cpu-ms/epoch")
		b.ReportMetric(float64(state)/1024/float64(epochs), "state-KB/epoch")
		b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/(1<<20)/float64(epochs), "alloc-MB/epoch")
		b.ReportMetric(float64(m1.NumGC-m0.NumGC)/float64(epochs), "GCs/epoch")
		_ = eng.Close()
	}
}
