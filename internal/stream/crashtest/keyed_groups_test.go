package crashtest

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// keyedGroupKills is how many workers TestKeyedWorkersGroupBy kills.
const keyedGroupKills = 8

// TestKeyedWorkersGroupBy: a plain GROUP BY status in update mode shared
// by three `sluice` processes (workers = 3, 8 partitions, 3-second
// leases) fed by Versity events through NATS, a worker SIGKILLed and
// restarted keyedGroupKills times while files land. Each owner epoch
// writes the groups it changed again; the file sink keeps every
// version, and counts only grow, so the largest count written per
// status is the final one: it must equal the batch GROUP BY's exactly
// (a file folded twice would show as more, a file lost as less).
func TestKeyedWorkersGroupBy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	ns, srv := needNotify(t)
	t0 := time.Now()
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	bucket := newBucket(t, srv, "kgroups")
	name := fmt.Sprintf("grp%d", bucketN.Add(1))
	up := &keyedUploader{srv: srv, bucket: bucket}
	up.upload(t, 4)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, ts TIMESTAMP) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (status INT, n BIGINT, s BIGINT) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT status, count(*), sum(id) FROM src GROUP BY status " +
		"WITH (name = '" + name + "', trigger = '200 milliseconds', workers = 3, partitions = 8, lock_ttl = '3 seconds', output_mode = 'update', " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	start, kill := f.start, f.kill
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)
	leases := watchLeases(t, ns, name)
	ws := []*worker{start(), start(), start()}
	if _, err := leases.waitAll(8, nil, 30*time.Second); err != nil {
		t.Fatalf("partitions not leased: %v\n%s", err, ws[0].stderr.String())
	}
	rng := rand.New(rand.NewPCG(47, 12))
	for round := 0; round < keyedGroupKills; round++ {
		up.upload(t, 2)
		// Soon after the upload: the victim is likely reading, publishing
		// or committing a file, which then gets read twice.
		time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
		f.alive(ws)
		i := rng.IntN(len(ws))
		kill(ws[i])
		ws[i] = start()
	}
	waitDrained(t, ns, bucket, 60*time.Second)
	// Owners may lag the drain on a loaded machine: how many versions
	// were written by then is only logged.
	mid := s.rows(t, "SELECT count(*) FROM out")[0]
	want := s.rows(t, "SELECT status, count(*), sum(id), sum(id) FROM src GROUP BY status ORDER BY status")
	// Counts only grow: the versions with the largest count are a
	// group's last, all with the one final sum.
	final := "SELECT o.status, o.n, min(o.s), max(o.s) FROM out o JOIN (SELECT status, max(n) AS n FROM out GROUP BY status) m " +
		"ON o.status = m.status AND o.n = m.n GROUP BY o.status, o.n ORDER BY o.status"
	var got []string
	deadline := time.Now().Add(60 * time.Second)
	for {
		got = s.rows(t, final)
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sink's last versions:\n%s\nbatch GROUP BY:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), ws[0].stderr.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // a double fold still in flight would show
	f.killAll()
	if got = s.rows(t, final); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("after settling, sink's last versions:\n%s\nbatch GROUP BY:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	t.Logf("%d files, %d groups, %s rows written before the drain, %d kills, ran in %s", up.files, len(want), mid, keyedGroupKills, time.Since(t0))
}
