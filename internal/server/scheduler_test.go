package server

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rowCount polls SELECT count(*) until it is want or the deadline passes.
func (f *fixture) waitCount(table string, want int, within time.Duration) {
	f.t.Helper()
	deadline := time.Now().Add(within)
	var got any
	for time.Now().Before(deadline) {
		r := f.sql(200, "SELECT count(*) FROM "+table)
		if len(r.Datarows) == 1 {
			got = r.Datarows[0][0]
			if got == float64(want) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.f().Fatalf("count(*) of %s: %v, want %d", table, got, want)
}

func (f *fixture) f() *testing.T { return f.t }

func (f *fixture) streamState(name string) string {
	f.t.Helper()
	for _, row := range f.sql(200, "SHOW STREAMS").Datarows {
		if row[0] == name {
			return fmt.Sprint(row[1])
		}
	}
	return ""
}

// TestBackgroundStreams: INSERT STREAM returns at once with the stream
// running in the background; a restart resumes it from its checkpoint;
// STOP STREAM is remembered across restarts.
func TestBackgroundStreams(t *testing.T) {
	f := newFixture(t, 5)
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	t0 := time.Now()
	r := f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '50 milliseconds')")
	if msg := fmt.Sprint(r.Datarows); !strings.Contains(msg, "stream feed started") {
		t.Fatalf("INSERT STREAM answered %s", msg)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("INSERT STREAM took %s: it should return once the stream started", d)
	}
	f.waitCount("out", 5, 10*time.Second)
	if s := f.streamState("feed"); s != "running" {
		t.Fatalf("SHOW STREAMS says %q", s)
	}

	// A restart resumes the stream; a file that landed meanwhile is read once.
	f.close()
	writeFile(t, filepath.Join(f.in, "part1.json"), `{"id": 100, "name": "late"}`+"\n")
	f.open()
	if s := f.streamState("feed"); s != "running" {
		t.Fatalf("after a restart SHOW STREAMS says %q", s)
	}
	f.waitCount("out", 6, 10*time.Second)

	// STOP STREAM holds across a restart; START STREAM resumes it.
	f.sql(200, "STOP STREAM feed")
	if s := f.streamState("feed"); s == "running" {
		t.Fatal("still running after STOP STREAM")
	}
	f.close()
	writeFile(t, filepath.Join(f.in, "part2.json"), `{"id": 200, "name": "later"}`+"\n")
	f.open()
	if s := f.streamState("feed"); s == "running" {
		t.Fatal("a stopped stream was resumed")
	}
	time.Sleep(200 * time.Millisecond)
	f.waitCount("out", 6, time.Second)
	if r := f.sql(200, "START STREAM feed"); !strings.Contains(fmt.Sprint(r.Datarows), "started") {
		t.Fatalf("START STREAM: %v", r.Datarows)
	}
	f.waitCount("out", 7, 10*time.Second)
	if r := f.sql(200, "SELECT count(DISTINCT id) FROM out"); r.Datarows[0][0] != float64(7) {
		t.Fatalf("duplicates in the sink: %v distinct ids of 7 rows", r.Datarows[0][0])
	}

	// A stream that does not plan fails the statement and is not recorded.
	f.sql(404, "INSERT STREAM INTO out SELECT id, name FROM nope WITH (name = 'broken')")
	if s := f.streamState("broken"); s != "" {
		t.Fatalf("a stream that never started is listed as %q", s)
	}
}

// TestEpochSemaphore: streams run epochs only while they hold a slot of
// the scheduler's semaphore.
func TestEpochSemaphore(t *testing.T) {
	f := newFixture(t, 3)
	slots := f.srv.sched.Slots()
	if cap(slots) != 2 {
		t.Fatalf("MaxConcurrentEpochs 2 gave %d slots", cap(slots))
	}
	// Take every slot: the stream starts but cannot run an epoch.
	for i := 0; i < cap(slots); i++ {
		slots <- struct{}{}
	}
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	time.Sleep(300 * time.Millisecond)
	if r := f.sql(200, "SELECT count(*) FROM out"); r.Datarows[0][0] != float64(0) {
		t.Fatalf("an epoch ran without a slot: %v rows", r.Datarows[0][0])
	}
	<-slots
	f.waitCount("out", 3, 10*time.Second)
	<-slots
}

// TestAutoRefreshView: a materialized view with auto_refresh runs in the
// background, and ALTER ... auto_refresh turns it off and on.
func TestAutoRefreshView(t *testing.T) {
	f := newFixture(t, 4)
	r := f.sql(200, "CREATE MATERIALIZED VIEW mv AS SELECT id, name FROM t WITH (auto_refresh = true, refresh_interval = '50 milliseconds')")
	if !strings.Contains(fmt.Sprint(r.Datarows), "started") {
		t.Fatalf("CREATE MATERIALIZED VIEW: %v", r.Datarows)
	}
	f.waitCount("mv", 4, 10*time.Second)
	f.sql(200, "ALTER MATERIALIZED VIEW mv WITH (auto_refresh = false)")
	f.close()
	writeFile(t, filepath.Join(f.in, "part1.json"), `{"id": 100, "name": "late"}`+"\n")
	f.open()
	time.Sleep(300 * time.Millisecond)
	f.waitCount("mv", 4, time.Second) // paused: not resumed
	f.sql(200, "ALTER MATERIALIZED VIEW mv WITH (auto_refresh = true)")
	f.waitCount("mv", 5, 10*time.Second)
	f.close()
	writeFile(t, filepath.Join(f.in, "part2.json"), `{"id": 200, "name": "later"}`+"\n")
	f.open()
	f.waitCount("mv", 6, 10*time.Second) // resumed after the restart
	f.sql(200, "DROP MATERIALIZED VIEW mv")
}
