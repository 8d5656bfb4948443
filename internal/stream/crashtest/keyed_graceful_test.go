package crashtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKeyedWorkersGracefulStop: a rolling restart of one of two `sluice
// sql` workers sharing a windowed count (8 partitions, 30-second
// leases). SIGTERM lets the worker finish its running epochs, hand back
// its slot and leases, and exit 0; the other worker then owns every
// partition well before the TTL. A SIGKILLed worker's partitions, for
// comparison, wait for its leases to expire. It logs both takeover
// times (BENCHMARKS.md, scale-out).
func TestKeyedWorkersGracefulStop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	const (
		parts = 8
		ttl   = 30 * time.Second
	)
	ns, srv := needNotify(t)
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	bucket := newBucket(t, srv, "kgrace")
	name := fmt.Sprintf("grace%d", bucketN.Add(1))
	up := &keyedUploader{srv: srv, bucket: bucket}
	up.upload(t, 4)
	session := s3Session(srv)
	tables := []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM src " +
		"GROUP BY TUMBLE(ts, '1 minute'), status " +
		fmt.Sprintf("WITH (name = '%s', trigger = '200 milliseconds', workers = 2, partitions = %d, lock_ttl = '30 seconds', ", name, parts) +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + filepath.Join(dir, "cp") + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	leases := watchLeases(t, ns, name)
	leases.ttl = ttl

	// split waits until a and b hold half of the partitions each.
	split := func(a, b *worker) {
		t.Helper()
		pa, pb := a.cmd.Process.Pid, b.cmd.Process.Pid
		if _, err := leases.waitAll(parts, func(h map[int]string) bool {
			per := map[int]int{}
			for _, v := range h {
				per[ownerPID(v)]++
			}
			return per[pa] == parts/2 && per[pb] == parts/2
		}, 60*time.Second); err != nil {
			t.Fatalf("partitions not split between the two workers: %v\n%s", err, a.stderr.String())
		}
	}
	// takeover waits until w holds every partition.
	takeover := func(w *worker, within time.Duration) time.Duration {
		t.Helper()
		pid := w.cmd.Process.Pid
		d, err := leases.waitAll(parts, func(h map[int]string) bool {
			for _, v := range h {
				if ownerPID(v) != pid {
					return false
				}
			}
			return true
		}, within)
		if err != nil {
			t.Fatalf("pid %d does not hold every partition: %v\n%s", pid, err, w.stderr.String())
		}
		return d
	}

	a, b := f.start(), f.start()
	split(a, b)
	up.upload(t, 2) // epochs in flight when the signal comes
	time.Sleep(300 * time.Millisecond)
	t0 := time.Now()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	type exit struct {
		err   error
		after time.Duration
	}
	exitc := make(chan exit, 1)
	go func() {
		err := <-a.exited
		a.exited <- err // for fleet.kill at the end
		exitc <- exit{err, time.Since(t0)}
	}()
	graceful := takeover(b, ttl)
	var exited time.Duration
	select {
	case e := <-exitc:
		if e.err != nil {
			t.Fatalf("worker stopped by SIGTERM exited with %v: %s", e.err, a.stderr.String())
		}
		exited = e.after
	case <-time.After(ttl):
		t.Fatalf("worker did not exit within %s of SIGTERM: %s", ttl, a.stderr.String())
	}
	if graceful >= ttl/2 {
		t.Errorf("after a graceful stop the other worker took %s to own every partition, lease TTL %s: it waited for the TTL", graceful, ttl)
	}
	if strings.Contains(a.stderr.String(), "abandoned") {
		t.Errorf("SIGTERM abandoned an epoch: %s", a.stderr.String())
	}
	// Its run is recorded stopped (it resumes from its commit), not
	// cancelled.
	if st, err := os.ReadFile(filepath.Join(dir, "cp", "status")); err != nil || !strings.Contains(string(st), `"state":"stopped"`) {
		t.Errorf("the stopped worker recorded %s (%v), want state stopped", st, err)
	}

	// The same with a kill: the partitions wait for the TTL.
	c := f.start()
	split(b, c)
	f.kill(c)
	killed := takeover(b, 3*ttl)
	t.Logf("lease TTL %s, %d partitions over 2 workers: takeover after SIGTERM %s (the stopped worker exited 0 after %s), after SIGKILL %s",
		ttl, parts, graceful.Round(time.Millisecond), exited.Round(time.Millisecond), killed.Round(time.Millisecond))
}
