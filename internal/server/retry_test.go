package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/job"
)

// waitStream polls the streams API until ok accepts the stream.
func (f *fixture) waitStream(name string, within time.Duration, ok func(StreamJSON) bool) StreamJSON {
	f.t.Helper()
	deadline := time.Now().Add(within)
	var s StreamJSON
	for time.Now().Before(deadline) {
		if s = f.apiStream(name); ok(s) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	f.t.Fatalf("stream %s: state %s attempts %d error %q: not what the test waits for", name, s.State, s.Attempts, s.LastError)
	return s
}

// TestStreamRetriesTransientFailure: a background stream whose sink
// location cannot be written (a file stands where its folder was) is
// retrying, with the error and the time of its next attempt, backing off
// between attempts; once the folder is back it runs on from its
// checkpoint and every row is in the sink exactly once.
func TestStreamRetriesTransientFailure(t *testing.T) {
	f := newFixtureWith(t, 5, func(o *Options) {
		o.Engine.RetryInitial, o.Engine.RetryMax = 30*time.Millisecond, 120*time.Millisecond
	})
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitCount("out", 5, 10*time.Second)

	// Break the sink: its folder becomes a file, so writing fails.
	aside := f.out + ".aside"
	if err := os.Rename(f.out, aside); err != nil {
		t.Fatal(err)
	}
	writeFile(t, f.out, "not a folder")
	var b strings.Builder
	for i := 100; i < 110; i++ {
		fmt.Fprintf(&b, `{"id": %d, "name": "n%d"}`+"\n", i, i)
	}
	writeFile(t, filepath.Join(f.in, "part1.json"), b.String())
	s := f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.State == job.StateRetrying && s.Attempts >= 3 })
	if s.LastError == "" || s.NextAttempt == nil {
		t.Fatalf("a retrying stream shows no error or next attempt: %+v", s)
	}
	if s.Epochs < 1 {
		t.Errorf("the retrying stream forgot its epochs: %+v", s)
	}
	// SHOW STREAMS and the metrics say so too.
	if st := f.streamState("feed"); st != job.StateRetrying {
		t.Errorf("SHOW STREAMS says %q", st)
	}
	if fams := f.scrape(); value(fams, "sluice_stream_retrying", "feed") != 1 || value(fams, "sluice_stream_retries", "feed") < 3 {
		t.Errorf("metrics: retrying %v, retries %v", value(fams, "sluice_stream_retrying", "feed"), value(fams, "sluice_stream_retries", "feed"))
	}

	// Mend it: the folder comes back, the stream runs on by itself.
	if err := os.Remove(f.out); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(aside, f.out); err != nil {
		t.Fatal(err)
	}
	f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.State == job.StateRunning })
	f.waitCount("out", 15, 10*time.Second)
	time.Sleep(100 * time.Millisecond) // a duplicate would land by now
	r := f.sql(200, "SELECT count(*), count(DISTINCT id) FROM out")
	if fmt.Sprint(r.Datarows) != "[[15 15]]" {
		t.Fatalf("sink after the retries: count, distinct ids = %v, want 15 15", r.Datarows)
	}

	// STOP STREAM stops a retrying stream for good.
	if err := os.Rename(f.out, aside); err != nil {
		t.Fatal(err)
	}
	writeFile(t, f.out, "not a folder")
	writeFile(t, filepath.Join(f.in, "part2.json"), `{"id": 200, "name": "x"}`+"\n")
	f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.State == job.StateRetrying })
	f.sql(200, "STOP STREAM feed")
	time.Sleep(300 * time.Millisecond) // several backoffs
	if s := f.apiStream("feed"); s.State == job.StateRunning || s.State == job.StateRetrying {
		t.Fatalf("after STOP STREAM: %s", s.State)
	}
}

// TestStreamPermanentFailureStaysFailed: an epoch that fails on the data
// (a cast no row can pass, over a FAILFAST table: under the default
// PERMISSIVE mode those rows would be bad rows and the stream go on)
// fails the stream for good: no retries.
func TestStreamPermanentFailureStaysFailed(t *testing.T) {
	f := newFixtureWith(t, 3, func(o *Options) {
		o.Engine.RetryInitial, o.Engine.RetryMax = 10*time.Millisecond, 20*time.Millisecond
	})
	f.sql(200, "CREATE TABLE tf (id BIGINT, name STRING) USING json LOCATION '"+f.in+"/' OPTIONS (mode 'FAILFAST')")
	f.sql(200, "CREATE TABLE out (id BIGINT) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO out SELECT CAST(name AS BIGINT) FROM tf WITH (name = 'bad', trigger = '20 milliseconds')")
	s := f.waitStream("bad", 10*time.Second, func(s StreamJSON) bool { return s.State == job.StateFailed })
	time.Sleep(200 * time.Millisecond)
	if s = f.apiStream("bad"); s.State != job.StateFailed || s.Attempts != 0 || !strings.Contains(s.LastError, "cannot cast") {
		t.Fatalf("a permanent failure: %+v", s)
	}
}

// TestResumeRetries: a stream that cannot resume when the server starts
// (its checkpoint folder is blocked by a file) is retrying rather than
// failed, and runs on from its checkpoint once the folder is back.
func TestResumeRetries(t *testing.T) {
	f := newFixtureWith(t, 5, func(o *Options) {
		o.Engine.RetryInitial, o.Engine.RetryMax = 30*time.Millisecond, 120*time.Millisecond
	})
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitCount("out", 5, 10*time.Second)
	f.close()
	cp := filepath.Join(f.dir, "data", "checkpoints", "feed")
	if err := os.Rename(cp, cp+".aside"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, cp, "not a folder")
	f.open()
	s := f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.State == job.StateRetrying && s.Attempts >= 2 })
	if s.LastError == "" {
		t.Fatalf("retrying without its error: %+v", s)
	}
	if err := os.Remove(cp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(cp+".aside", cp); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(f.in, "part1.json"), `{"id": 100, "name": "late"}`+"\n")
	f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.State == job.StateRunning })
	f.waitCount("out", 6, 10*time.Second)
	if r := f.sql(200, "SELECT count(DISTINCT id) FROM out"); r.Datarows[0][0] != float64(6) {
		t.Fatalf("duplicates: %v distinct of 6", r.Datarows[0][0])
	}
}
