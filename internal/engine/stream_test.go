package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sluice/internal/job"
	"sluice/internal/stream"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustExecAll runs statements in order with mustExec, failing the test on
// the first error.
func mustExecAll(t *testing.T, eng *Engine, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		mustExec(t, eng, q)
	}
}

func queryRows(t *testing.T, eng *Engine, q string) []string {
	t.Helper()
	res, err := eng.Execute(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	rows := rowsOf(t, res[len(res)-1])
	sort.Strings(rows)
	return rows
}

// TestInsertStreamAvailableNow streams JSON files into a Parquet table in
// rate-limited epochs, then picks up a file that lands later, and
// compares with the batch INSERT over the same files.
func TestInsertStreamAvailableNow(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	for i := 0; i < 5; i++ {
		writeFile(t, filepath.Join(in, fmt.Sprintf("f%d.json", i)), fmt.Sprintf("{\"id\": %d, \"status\": %d}\n{\"id\": %d, \"status\": 500}\n", i*2, 200+i, i*2+1))
	}
	var lines []string
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), StreamProgress: func(p stream.Progress) { lines = append(lines, p.Line()) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE src (id BIGINT, status INT) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (id BIGINT, status INT) USING parquet LOCATION '"+filepath.Join(dir, "out")+"/'",
		"CREATE TABLE batch (id BIGINT, status INT) USING parquet LOCATION '"+filepath.Join(dir, "batch")+"/'",
	)
	stmt := "INSERT STREAM INTO out SELECT id, status FROM src WHERE status >= 200 WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 2)"
	if _, err := eng.Execute(ctx, stmt); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 {
		t.Fatalf("want 3 epochs of at most 2 files, got %d: %v", len(lines), lines)
	}
	writeFile(t, filepath.Join(in, "f9.json"), "{\"id\": 99, \"status\": 201}\n")
	if _, err := eng.Execute(ctx, stmt); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 4 || !strings.Contains(lines[3], "epoch 3: 1 file,") {
		t.Fatalf("the late file should make epoch 3: %v", lines)
	}
	if _, err := eng.Execute(ctx, "INSERT INTO batch SELECT id, status FROM src WHERE status >= 200"); err != nil {
		t.Fatal(err)
	}
	got, want := queryRows(t, eng, "SELECT * FROM out"), queryRows(t, eng, "SELECT * FROM batch")
	if strings.Join(got, ",") != strings.Join(want, ",") || len(got) != 11 {
		t.Fatalf("stream wrote %v\nbatch wrote %v", got, want)
	}
	show := queryRows(t, eng, "SHOW STREAMS")
	if len(show) != 1 || !strings.HasPrefix(show[0], "feed ") {
		t.Fatalf("SHOW STREAMS: %v", show)
	}
	desc := strings.Join(queryRows(t, eng, "DESCRIBE STREAM feed"), "\n")
	if !strings.Contains(desc, "last_epoch 3") {
		t.Fatalf("DESCRIBE STREAM:\n%s", desc)
	}
}

// TestStreamIntervalStop runs an interval-triggered stream on a manual
// clock and stops it with STOP STREAM from another goroutine.
func TestStreamIntervalStop(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"id\": 1}\n")
	clock := stream.NewManualClock(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	epochs := make(chan stream.Progress, 10)
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), Clock: clock, StreamProgress: func(p stream.Progress) { epochs <- p }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE src (id BIGINT) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (id BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
	)
	done := make(chan error, 1)
	go func() {
		_, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT id FROM src WITH (name = 's', trigger = '10 seconds')")
		done <- err
	}()
	if p := <-epochs; p.Epoch != 0 || p.RowsOut != 1 {
		t.Fatalf("epoch 0: %+v", p)
	}
	writeFile(t, filepath.Join(in, "b.json"), "{\"id\": 2}\n{\"id\": 3}\n")
	for clock.Waiters() == 0 {
		time.Sleep(time.Millisecond)
	}
	clock.Advance(10 * time.Second)
	if p := <-epochs; p.Epoch != 1 || p.RowsOut != 2 {
		t.Fatalf("epoch 1: %+v", p)
	}
	if _, err := eng.Execute(ctx, "STOP STREAM s"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := queryRows(t, eng, "SELECT id FROM out"); strings.Join(got, ",") != "1,2,3" {
		t.Fatalf("out: %v", got)
	}
}

// TestQueryManager submits a stream and a batch query, lists them,
// watches the stream's progress and cancels it.
func TestQueryManager(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"id\": 1}\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE src (id BIGINT) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (id BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
	)
	sid, err := eng.Submit(ctx, "INSERT STREAM INTO out SELECT id FROM src WITH (name = 'm', trigger = '50 ms')")
	if err != nil {
		t.Fatal(err)
	}
	bid, err := eng.Submit(ctx, "SELECT count(*) FROM src")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := eng.Wait(ctx, bid); err != nil || info.State != job.StateSuccess {
		t.Fatalf("batch query: %+v %v", info, err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, st, err := eng.Status(sid)
		if err != nil {
			t.Fatal(err)
		}
		if st != nil && st.Epochs >= 1 && st.State == job.StateRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stream made no progress: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if qs := eng.Queries(); len(qs) != 2 || qs[0].ID != sid {
		t.Fatalf("Queries: %+v", qs)
	}
	if err := eng.Cancel(sid); err != nil {
		t.Fatal(err)
	}
	info, err := eng.Wait(ctx, sid)
	if err != nil || info.State != job.StateCancelled {
		t.Fatalf("after cancel: %+v %v", info, err)
	}
	if err := eng.Cancel("q99"); err == nil {
		t.Fatal("cancelling an unknown query should fail")
	}
}

// TestStreamStatelessKeepsLateRows: with WATERMARK ts - 1 minute, a row
// older than the watermark still reaches the sink of a stateless stream
// (a projection), as in Spark, where only stateful operators drop late
// rows: none is counted, and the watermark still advances.
func TestStreamStatelessKeepsLateRows(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"id\": 1, \"ts\": \"2026-11-30T10:00:00Z\"}\n{\"id\": 2, \"ts\": \"2026-11-30T10:05:00Z\"}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"id\": 3, \"ts\": \"2026-11-30T09:00:00Z\"}\n{\"id\": 4, \"ts\": \"2026-11-30T10:04:30Z\"}\n{\"id\": 5, \"ts\": \"2026-11-30T10:10:00Z\"}\n")
	var ps []stream.Progress
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), StreamProgress: func(p stream.Progress) { ps = append(ps, p) }})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		"CREATE TABLE src (id BIGINT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (id BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
		"INSERT STREAM INTO out SELECT id FROM src WITH (name = 'late', trigger = 'available_now', max_files_per_trigger = 1)",
	)
	if len(ps) != 2 || ps[1].LateRows != 0 || ps[1].Watermark != time.Date(2026, 11, 30, 10, 4, 0, 0, time.UTC).UnixMicro() {
		t.Fatalf("progress: %+v", ps)
	}
	if got := queryRows(t, eng, "SELECT id FROM out ORDER BY id"); strings.Join(got, ",") != "1,2,3,4,5" {
		t.Fatalf("out: %v", got)
	}
	desc := strings.Join(queryRows(t, eng, "DESCRIBE STREAM late"), "\n")
	if !strings.Contains(desc, "late_rows_dropped 0") {
		t.Fatalf("DESCRIBE STREAM:\n%s", desc)
	}
}

// TestStreamTumbleAppend: a 5-minute tumbling count in append mode writes
// each window once, when the watermark passes its end, and the result
// equals the batch query over the windows the stream closed.
func TestStreamTumbleAppend(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"ip\": \"a\", \"ts\": \"2026-11-30T10:01:00Z\"}\n{\"ip\": \"b\", \"ts\": \"2026-11-30T10:02:00Z\"}\n{\"ip\": \"a\", \"ts\": \"2026-11-30T10:04:00Z\"}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"ip\": \"a\", \"ts\": \"2026-11-30T10:06:00Z\"}\n{\"ip\": \"a\", \"ts\": \"2026-11-30T10:03:00Z\"}\n")
	writeFile(t, filepath.Join(in, "c.json"), "{\"ip\": \"b\", \"ts\": \"2026-11-30T10:12:00Z\"}\n")
	var ps []stream.Progress
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), StreamProgress: func(p stream.Progress) { ps = append(ps, p) }})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		"CREATE TABLE src (ip STRING, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (w_start TIMESTAMP, ip STRING, n BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
		"INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, ip, count(*) FROM src GROUP BY TUMBLE(ts, '5 minutes'), ip WITH (name = 'w', trigger = 'available_now', max_files_per_trigger = 1)",
	)
	// Epoch 0 (a): watermark none. Epoch 1 (b): watermark 10:03, nothing
	// closes; 10:03 is not late. Epoch 2 (c): watermark 10:05 closes
	// [10:00, 10:05). Then a no-data epoch with watermark 10:11 closes
	// [10:05, 10:10). [10:10, 10:15) stays open.
	got := queryRows(t, eng, "SELECT * FROM out")
	want := []string{"2026-11-30 10:00:00 a 3", "2026-11-30 10:00:00 b 1", "2026-11-30 10:05:00 a 1"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("out: %v\nwant %v\nprogress: %+v", got, want, ps)
	}
}

// TestStreamTumbleRestartEveryEpoch runs the same windowed stream one
// epoch per engine (trigger once, a fresh engine each time), so window
// state goes through snapshot and restore between every epoch; the
// output must equal the straight-through run's.
func TestStreamTumbleRestartEveryEpoch(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"ip\": \"a\", \"ts\": \"2026-11-30T10:01:00Z\"}\n{\"ip\": \"b\", \"ts\": \"2026-11-30T10:02:00Z\"}\n{\"ip\": \"a\", \"ts\": \"2026-11-30T10:04:00Z\"}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"ip\": \"a\", \"ts\": \"2026-11-30T10:06:00Z\"}\n{\"ip\": \"a\", \"ts\": \"2026-11-30T10:03:00Z\"}\n")
	writeFile(t, filepath.Join(in, "c.json"), "{\"ip\": \"b\", \"ts\": \"2026-11-30T10:12:00Z\"}\n")
	data := filepath.Join(dir, "data")
	ctx := context.Background()
	setup, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, setup,
		"CREATE TABLE src (ip STRING, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (w_start TIMESTAMP, ip STRING, n BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
	)
	for i := 0; i < 6; i++ {
		eng, err := Open(Options{DataDir: data})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, ip, count(*) FROM src GROUP BY TUMBLE(ts, '5 minutes'), ip WITH (name = 'w', trigger = 'once', max_files_per_trigger = 1)"); err != nil {
			t.Fatal(err)
		}
	}
	got := queryRows(t, setup, "SELECT * FROM out")
	want := []string{"2026-11-30 10:00:00 a 3", "2026-11-30 10:00:00 b 1", "2026-11-30 10:05:00 a 1"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("out: %v\nwant %v", got, want)
	}
}

// TestStreamStaticJoinRefresh enriches a stream with a lookup table that
// changes while the stream runs: epochs after lookup_refresh_interval see
// the new lookup rows.
func TestStreamStaticJoinRefresh(t *testing.T) {
	dir := t.TempDir()
	in, users := filepath.Join(dir, "in"), filepath.Join(dir, "users")
	writeFile(t, filepath.Join(in, "a.json"), "{\"uid\": 1}\n{\"uid\": 2}\n")
	writeFile(t, filepath.Join(users, "u.json"), "{\"uid\": 1, \"name\": \"ada\"}\n")
	clock := stream.NewManualClock(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	epochs := make(chan stream.Progress, 10)
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), Clock: clock, StreamProgress: func(p stream.Progress) { epochs <- p }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE events (uid BIGINT) USING json LOCATION '"+in+"/'",
		"CREATE TABLE users (uid BIGINT, name STRING) USING json LOCATION '"+users+"/'",
		"CREATE TABLE out (uid BIGINT, name STRING) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
	)
	done := make(chan error, 1)
	go func() {
		_, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT e.uid, u.name FROM events e LEFT JOIN users u ON e.uid = u.uid WITH (name = 'j', trigger = '10 seconds', lookup_refresh_interval = '10 seconds')")
		done <- err
	}()
	select {
	case <-epochs:
	case err := <-done:
		t.Fatalf("stream ended before its first epoch: %v", err)
	}
	writeFile(t, filepath.Join(users, "v.json"), "{\"uid\": 3, \"name\": \"cy\"}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"uid\": 3}\n")
	for clock.Waiters() == 0 {
		time.Sleep(time.Millisecond)
	}
	clock.Advance(10 * time.Second)
	select {
	case <-epochs:
	case err := <-done:
		t.Fatalf("stream ended early: %v", err)
	}
	if _, err := eng.Execute(ctx, "STOP STREAM j"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := queryRows(t, eng, "SELECT uid, name FROM out")
	if strings.Join(got, ",") != "1 ada,2 NULL,3 cy" {
		t.Fatalf("out: %v", got)
	}
}

// TestStreamHopAppend: hopping windows in a stream write each closed
// window once; the result equals the batch query over the same closed
// windows.
func TestStreamHopAppend(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"ip\": \"a\", \"ts\": \"2026-11-30T10:01:00Z\"}\n{\"ip\": \"b\", \"ts\": \"2026-11-30T10:02:00Z\"}\n{\"ip\": \"a\", \"ts\": \"2026-11-30T10:04:00Z\"}\n")
	writeFile(t, filepath.Join(in, "b.json"), "{\"ip\": \"a\", \"ts\": \"2026-11-30T10:06:00Z\"}\n{\"ip\": \"a\", \"ts\": \"2026-11-30T10:03:00Z\"}\n")
	writeFile(t, filepath.Join(in, "c.json"), "{\"ip\": \"b\", \"ts\": \"2026-11-30T10:12:00Z\"}\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		"CREATE TABLE src (ip STRING, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (w_start TIMESTAMP, ip STRING, n BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
		"INSERT STREAM INTO out SELECT HOP(ts, '10 minutes', '5 minutes').start, ip, count(*) FROM src GROUP BY HOP(ts, '10 minutes', '5 minutes'), ip WITH (name = 'h', trigger = 'available_now', max_files_per_trigger = 1)",
	)
	// The final watermark is 10:11: windows ending by then are closed.
	got := queryRows(t, eng, "SELECT * FROM out")
	want := queryRows(t, eng, "SELECT * FROM (SELECT HOP(ts, '10 minutes', '5 minutes').start AS s, ip, count(*) FROM src GROUP BY HOP(ts, '10 minutes', '5 minutes'), ip) b WHERE s <= TIMESTAMP '2026-11-30 10:01:00'")
	if len(got) == 0 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("stream: %v\nbatch: %v", got, want)
	}
}

// TestStreamIdleTimeoutClosesWindows: with watermark_idle_timeout, a
// source that stops receiving files still closes its open windows as
// processing time passes; without it the window would wait for data.
func TestStreamIdleTimeoutClosesWindows(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"k\": \"a\", \"ts\": \"2026-11-30T10:01:00Z\"}\n")
	clock := stream.NewManualClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	epochs := make(chan stream.Progress, 100)
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), Clock: clock, StreamProgress: func(p stream.Progress) { epochs <- p }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE src (k STRING, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (w TIMESTAMP, k STRING, n BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
	)
	done := make(chan error, 1)
	go func() {
		_, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, k, count(*) FROM src GROUP BY TUMBLE(ts, '5 minutes'), k WITH (name = 'idle', trigger = '10 seconds', watermark_idle_timeout = '30 seconds')")
		done <- err
	}()
	var closed bool
	for i := 0; i < 100 && !closed; i++ {
		select {
		case p := <-epochs:
			closed = p.RowsOut > 0
			continue
		case err := <-done:
			t.Fatalf("stream ended: %v", err)
		default:
		}
		for clock.Waiters() == 0 {
			time.Sleep(time.Millisecond)
		}
		clock.Advance(10 * time.Second)
		time.Sleep(2 * time.Millisecond)
	}
	for len(epochs) > 0 && !closed {
		closed = (<-epochs).RowsOut > 0
	}
	if _, err := eng.Execute(ctx, "STOP STREAM idle"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := queryRows(t, eng, "SELECT * FROM out"); strings.Join(got, ",") != "2026-11-30 10:00:00 a 1" {
		t.Fatalf("out: %v (window closed by idle timeout: %v)", got, closed)
	}
}

// TestStreamSessionAppend: session windows in a stream are written once
// the watermark passes their end, straight through and with a fresh
// engine per epoch (buffered session rows go through snapshots).
func TestStreamSessionAppend(t *testing.T) {
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in")
			writeFile(t, filepath.Join(in, "a.json"), "{\"k\": \"a\", \"ts\": \"2026-11-30T10:00:00Z\"}\n{\"k\": \"a\", \"ts\": \"2026-11-30T10:03:00Z\"}\n{\"k\": \"b\", \"ts\": \"2026-11-30T10:01:00Z\"}\n")
			writeFile(t, filepath.Join(in, "b.json"), "{\"k\": \"a\", \"ts\": \"2026-11-30T10:20:00Z\"}\n{\"k\": \"b\", \"ts\": \"2026-11-30T10:04:00Z\"}\n")
			data := filepath.Join(dir, "data")
			ctx := context.Background()
			setup, err := Open(Options{DataDir: data})
			if err != nil {
				t.Fatal(err)
			}
			mustExecAll(t, setup,
				"CREATE TABLE src (k STRING, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
				"CREATE TABLE out (s TIMESTAMP, e TIMESTAMP, k STRING, n BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
			)
			stmt := "INSERT STREAM INTO out SELECT SESSION(ts, '5 minutes').start, SESSION(ts, '5 minutes').end, k, count(*) FROM src GROUP BY SESSION(ts, '5 minutes'), k WITH (name = 's', trigger = '%s', max_files_per_trigger = 1)"
			if restart {
				for i := 0; i < 4; i++ {
					eng, err := Open(Options{DataDir: data})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := eng.Execute(ctx, fmt.Sprintf(stmt, "once")); err != nil {
						t.Fatal(err)
					}
				}
			} else if _, err := setup.Execute(ctx, fmt.Sprintf(stmt, "available_now")); err != nil {
				t.Fatal(err)
			}
			// Final watermark 10:19: a's [10:00, 10:08) and b's [10:01, 10:09)
			// are closed; a's session at 10:20 stays open.
			got := queryRows(t, setup, "SELECT * FROM out")
			want := []string{"2026-11-30 10:00:00 2026-11-30 10:08:00 a 2", "2026-11-30 10:01:00 2026-11-30 10:09:00 b 2"}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("out: %v\nwant %v", got, want)
			}
		})
	}
}
