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
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT, status INT) USING json LOCATION '" + in + "/'",
		"CREATE TABLE out (id BIGINT, status INT) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
		"CREATE TABLE batch (id BIGINT, status INT) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
	} {
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
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
	if len(lines) != 4 || !strings.Contains(lines[3], "epoch 3: 1 files") {
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
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT) USING json LOCATION '" + in + "/'",
		"CREATE TABLE out (id BIGINT) USING json LOCATION '" + filepath.Join(dir, "out") + "/'",
	} {
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
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
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT) USING json LOCATION '" + in + "/'",
		"CREATE TABLE out (id BIGINT) USING json LOCATION '" + filepath.Join(dir, "out") + "/'",
	} {
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	sid, err := eng.Submit(ctx, "INSERT STREAM INTO out SELECT id FROM src WITH (name = 'm', trigger = '50 ms')")
	if err != nil {
		t.Fatal(err)
	}
	bid, err := eng.Submit(ctx, "SELECT count(*) FROM src")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := eng.Wait(ctx, bid); err != nil || info.State != StateSuccess {
		t.Fatalf("batch query: %+v %v", info, err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, st, err := eng.Status(sid)
		if err != nil {
			t.Fatal(err)
		}
		if st != nil && st.Epochs >= 1 && st.State == StateRunning {
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
	if err != nil || info.State != StateCancelled {
		t.Fatalf("after cancel: %+v %v", info, err)
	}
	if err := eng.Cancel("q99"); err == nil {
		t.Fatal("cancelling an unknown query should fail")
	}
}
