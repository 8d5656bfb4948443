package crashtest

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// TestKeyedWorkersClusterNodeLoss: a windowed count shared by two
// `sluice sql` workers (4 partitions, 3-second leases) over an R3 events
// stream of a 3-node JetStream cluster, so Sluice's partials and
// watermark streams and its lease bucket are R3 too. The node leading
// the partials stream is killed, and a worker during that outage:
// windows keep closing while it is down, no worker exits by itself, and once it is back and a last file closes every
// window the sink equals the batch GROUP BY, row for row.
func TestKeyedWorkersClusterNodeLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts a 3-node NATS cluster and an S3 server")
	}
	cl := natsserver.StartCluster(t, 3)
	if err := cl.AddStream("s3events", 3, eventSubject); err != nil {
		t.Fatal(err)
	}
	srv, err := s3server.Start("--event-nats-url", cl.URL, "--event-nats-topic", eventSubject)
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	t.Cleanup(srv.Stop)
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	bucket := newBucket(t, srv, "kcluster")
	name := fmt.Sprintf("kcl%d", bucketN.Add(1))
	// Not keyedUploader: its putNotified counts events of the shared
	// NATS server, which this test's gateway does not publish to.
	up := &struct{ files int }{}
	upload := func(n int) {
		t.Helper()
		for i := up.files; i < up.files+n; i++ {
			putObject(t, srv, bucket, fmt.Sprintf("in/f%04d.json", i), keyedFile(i))
		}
		up.files += n
	}
	upload(5) // 100 s of event time: the first window closes
	session := s3Session(srv)
	tables := []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
		"CREATE TABLE IF NOT EXISTS batch (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", cl.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM src " +
		"GROUP BY TUMBLE(ts, '1 minute'), status " +
		fmt.Sprintf("WITH (name = '%s', trigger = '200 milliseconds', workers = 2, partitions = 4, lock_ttl = '3 seconds', ", name) +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + filepath.Join(dir, "cp") + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	workers := []*worker{f.start(), f.start()}
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)
	count := func() int {
		n, _ := strconv.Atoi(s.rows(t, "SELECT count(*) FROM out")[0])
		return n
	}
	waitMore := func(what string, than int, within time.Duration) time.Duration {
		t.Helper()
		t0 := time.Now()
		for count() <= than {
			if time.Since(t0) > within {
				var logs []string
				for i, w := range f.all {
					logs = append(logs, fmt.Sprintf("worker process %d:\n%s", i, w.stderr.String()))
				}
				t.Fatalf("%s: the sink stayed at %d rows for %s\n%s", what, than, within, strings.Join(logs, "\n"))
			}
			time.Sleep(200 * time.Millisecond)
		}
		return time.Since(t0)
	}
	alive := func(when string) {
		t.Helper()
		for i, w := range workers {
			select {
			case err := <-w.exited:
				w.exited <- err
				t.Fatalf("%s: worker %d exited (%v): %s", when, i, err, w.stderr.String())
			default:
			}
		}
	}
	waitMore("before the node loss", 0, 60*time.Second)

	leader, err := cl.StreamLeader("sluice-" + name)
	if err != nil {
		t.Fatal(err)
	}
	cl.Servers[leader].Down()
	before := count()
	// Events published while the events stream has no leader are lost
	// (that node may have led it too): upload once it has one.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if _, err := cl.StreamLeader("s3events"); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the events stream has no leader: %v", err)
		}
	}
	upload(3) // the next window closes
	// A worker is SIGKILLed too while the node is down: the other takes
	// its partitions at the lease TTL, from the R3 lease bucket.
	time.Sleep(300 * time.Millisecond)
	f.kill(workers[1])
	workers[1] = f.start()
	stall := waitMore("with the partials stream's leader down and a worker killed", before, 60*time.Second)
	alive("with a node down")
	t.Logf("the node leading sluice-%s killed, then a worker: the next window reached the sink %s after its files were uploaded", name, stall.Round(time.Millisecond))

	if err := cl.Servers[leader].Up(); err != nil {
		t.Fatal(err)
	}

	upload(2)
	closer := keyedBase.Add(time.Duration(up.files*keyedRows)*keyedStep + time.Hour)
	putObject(t, srv, bucket, fmt.Sprintf("in/f%04d.json", up.files), []byte(fmt.Sprintf("{\"id\": -1, \"status\": 1, \"ts\": \"%s\"}\n", closer.Format(time.RFC3339Nano))))
	s.exec(t, "INSERT INTO batch SELECT TUMBLE(ts, '1 minute').start AS w, status, count(*) FROM src GROUP BY TUMBLE(ts, '1 minute'), status "+
		"HAVING w < TIMESTAMP '"+closer.Add(-time.Minute).Format("2006-01-02 15:04:05")+"'")
	want := s.rows(t, "SELECT w, status, n FROM batch ORDER BY w, status")
	for deadline := time.Now().Add(60 * time.Second); count() != len(want); time.Sleep(300 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("sink has %d rows, want %d\n%s", count(), len(want), workers[0].stderr.String())
		}
	}
	time.Sleep(1500 * time.Millisecond) // anything still in flight would show as a duplicate
	alive("at the end")
	f.killAll()
	sameRows(t, s, "SELECT w, status, n FROM out ORDER BY w, status", want)
}
