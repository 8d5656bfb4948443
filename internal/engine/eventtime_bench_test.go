package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/exec"
	"sluice/internal/expr"
	"sluice/internal/stream"
	"sluice/internal/types"
)

// Event-time benchmarks; figures and the command are in BENCHMARKS.md,
// "Event time". Run once each (-benchtime=1x): they measure a fixed
// workload, not a loop body.

// etBenchInputs writes files of rows NDJSON lines each whose event times
// rise by 10 ms a row with up to 30 s of disorder, as an access log would;
// it returns the bytes written.
func etBenchInputs(b *testing.B, dir string, files, rows int) int64 {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	var total int64
	base := etBase.UnixMilli()
	for f := 0; f < files; f++ {
		var sb strings.Builder
		for r := 0; r < rows; r++ {
			id := f*rows + r
			ms := base + int64(id)*10 - int64(id*7919%30000)
			ts := time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
			fmt.Fprintf(&sb, "{\"id\": %d, \"ts\": %q, \"status\": %d, \"path\": \"/api/v1/items/%d\", \"bytes\": %d}\n", id, ts, 200+id%4*100, id%1000, id*7%65536)
		}
		p := filepath.Join(dir, fmt.Sprintf("f%06d.json", f))
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		total += int64(sb.Len())
	}
	return total
}

// BenchmarkEventTimeWindowedNDJSON: a 1-minute tumbling count and sum by
// status and path in append mode over NDJSON files, available_now, 4
// files an epoch, from local disk and from the real S3 server
// (testutil/s3server; the output goes to local Parquet either way).
// rows/cpu-s is the per-core figure (user+system CPU of this process;
// the S3 server is a separate versitygw process, not counted), rows/s
// the wall-clock one. state-KB is the largest state file the run
// checkpointed, state-KB/epoch all of them over the epochs.
func BenchmarkEventTimeWindowedNDJSON(b *testing.B) {
	const files, rows = 32, 25000
	dir := b.TempDir()
	in := filepath.Join(dir, "in")
	size := etBenchInputs(b, in, files, rows)
	for _, src := range []string{"local", "s3"} {
		b.Run(src, func(b *testing.B) {
			location, setup := in, []string(nil)
			if src == "s3" {
				srv := needS3(b)
				bucket := newBucket(b)
				for f := 0; f < files; f++ {
					uploadFile(b, bucket, fmt.Sprintf("in/f%06d.json", f), filepath.Join(in, fmt.Sprintf("f%06d.json", f)))
				}
				location = "s3://" + bucket + "/in"
				setup = []string{
					fmt.Sprintf("SET s3.endpoint = '%s'", srv.Endpoint),
					fmt.Sprintf("SET s3.access_key = '%s'", srv.AccessKey),
					fmt.Sprintf("SET s3.secret_key = '%s'", srv.SecretKey),
					fmt.Sprintf("SET s3.region = '%s'", srv.Region),
					"SET s3.path_style = 'true'",
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run, err := os.MkdirTemp(dir, src)
				if err != nil {
					b.Fatal(err)
				}
				etBenchWindowed(b, run, location, setup, files*rows, size)
			}
		})
	}
}

func etBenchWindowed(b *testing.B, run, location string, setup []string, rows int, size int64) {
	var epochs int
	var late, out int64
	eng, err := Open(Options{DataDir: filepath.Join(run, "data"), StreamProgress: func(p stream.Progress) { epochs++; late += p.LateRows; out += p.RowsOut }})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range append(setup,
		"CREATE TABLE src (id BIGINT, ts TIMESTAMP, status INT, path STRING, bytes BIGINT, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+location+"/'",
		"CREATE TABLE out (w TIMESTAMP, status INT, path STRING, n BIGINT, b BIGINT) USING parquet LOCATION '"+filepath.Join(run, "out")+"/'") {
		if _, err := eng.Execute(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	cpu0, t0 := cpuTime(), time.Now()
	if _, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT TUMBLE(ts, '1 minute').start, status, path, count(*), sum(bytes) FROM src GROUP BY TUMBLE(ts, '1 minute'), status, path WITH (trigger = 'available_now', max_files_per_trigger = 4)"); err != nil {
		b.Fatal(err)
	}
	cpu, wall := cpuTime()-cpu0, time.Since(t0)
	if late != 0 || out == 0 {
		b.Fatalf("late %d rows, wrote %d", late, out)
	}
	n := float64(rows)
	b.ReportMetric(n/cpu.Seconds(), "rows/cpu-s")
	b.ReportMetric(n/wall.Seconds(), "rows/s")
	b.ReportMetric(float64(size)/(1<<20)/wall.Seconds(), "MB/s")
	b.ReportMetric(float64(epochs), "epochs")
	b.ReportMetric(float64(out), "rows-out")
	var state, written int64
	_ = filepath.WalkDir(filepath.Join(run, "data"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(p), "/state/") {
			if fi, err := d.Info(); err == nil {
				state = max(state, fi.Size())
				written += fi.Size()
			}
		}
		return nil
	})
	b.ReportMetric(float64(state)/1024, "state-KB")
	b.ReportMetric(float64(written)/1024/float64(epochs), "state-KB/epoch")
}

// etWindowAgg is tumble(ts, 5 minutes), key -> count(*), sum(v) over a
// (ts TIMESTAMP, key BIGINT, v BIGINT) input.
func etWindowAgg(b *testing.B) *exec.WindowAggregate {
	b.Helper()
	ts := expr.Col(0, "ts", types.Timestamp)
	size, err := expr.Lit("5 minutes", arrow.BinaryTypes.String)
	if err != nil {
		b.Fatal(err)
	}
	win, err := expr.Call("tumble", ts, size)
	if err != nil {
		b.Fatal(err)
	}
	key, v := expr.Col(1, "key", arrow.PrimitiveTypes.Int64), expr.Col(2, "v", arrow.PrimitiveTypes.Int64)
	n, err := expr.NewAggregate("count", nil, false)
	if err != nil {
		b.Fatal(err)
	}
	s, err := expr.NewAggregate("sum", []expr.Expr{v}, false)
	if err != nil {
		b.Fatal(err)
	}
	w, err := exec.NewWindowAggregate([]expr.Expr{win, key}, []string{"w", "key", "n", "s"}, []*expr.Aggregate{n, s}, 0, exec.Update)
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// etKeyBatch is rows [from, from+n) of keys, all in one 5-minute window.
func etKeyBatch(from, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: types.Timestamp, Nullable: true},
		{Name: "key", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	tb := array.NewTimestampBuilder(memory.DefaultAllocator, types.Timestamp.(*arrow.TimestampType))
	kb, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
	defer tb.Release()
	defer kb.Release()
	defer vb.Release()
	base := etBase.UnixMicro()
	for i := from; i < from+n; i++ {
		tb.Append(arrow.Timestamp(base + int64(i%240)*time.Second.Microseconds()))
		kb.Append(int64(i))
		vb.Append(int64(i % 977))
	}
	cols := []arrow.Array{tb.NewArray(), kb.NewArray(), vb.NewArray()}
	rb := array.NewRecordBatch(schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rb
}

func etHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkEventTimeWindowState fills one open 5-minute window with
// `groups` distinct keys (count and sum each) through
// exec.WindowAggregate directly, then measures the heap it holds (Go heap
// after GC, before and after), one epoch's snapshot (bytes and time into
// a buffer) and the restore.
func BenchmarkEventTimeWindowState(b *testing.B) {
	for _, groups := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) {
			const batch = 65536
			var batches []arrow.RecordBatch
			for from := 0; from < groups; from += batch {
				batches = append(batches, etKeyBatch(from, min(batch, groups-from)))
			}
			defer func() {
				for _, rb := range batches {
					rb.Release()
				}
			}()
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				before := etHeap()
				w := etWindowAgg(b)
				t0 := time.Now()
				for _, rb := range batches {
					if err := w.Process(ctx, rb, exec.NewCollect()); err != nil {
						b.Fatal(err)
					}
				}
				agg := time.Since(t0)
				after := etHeap()
				var buf bytes.Buffer
				t1 := time.Now()
				if err := w.Snapshot(&buf); err != nil {
					b.Fatal(err)
				}
				snap := time.Since(t1)
				r := etWindowAgg(b)
				t2 := time.Now()
				if err := r.Restore(bytes.NewReader(buf.Bytes())); err != nil {
					b.Fatal(err)
				}
				restore := time.Since(t2)
				if w.OpenWindows() != 1 || r.OpenWindows() != 1 {
					b.Fatalf("open windows %d, restored %d", w.OpenWindows(), r.OpenWindows())
				}
				runtime.KeepAlive(w)
				b.ReportMetric(float64(after-before)/(1<<20), "heap-MB")
				b.ReportMetric(float64(after-before)/float64(groups), "heap-B/group")
				b.ReportMetric(float64(groups)/agg.Seconds(), "rows/s")
				b.ReportMetric(float64(buf.Len())/(1<<20), "snap-MB")
				b.ReportMetric(float64(buf.Len())/float64(groups), "snap-B/group")
				b.ReportMetric(float64(snap.Microseconds())/1000, "snap-ms")
				b.ReportMetric(float64(restore.Microseconds())/1000, "restore-ms")
			}
		})
	}
}
