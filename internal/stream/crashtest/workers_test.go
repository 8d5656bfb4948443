package crashtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"
)

// workerRows per input file: enough that an epoch lasts long enough to
// be caught mid-way and killed there.
const workerRows = 2000

// workerKills is how many workers TestWorkersNotifications kills.
const workerKills = 20

// TestWorkersNotifications: the same stream (workers = 4) in several
// `sluice` processes sharing one checkpoint location and one JetStream
// consumer. Three start, objects keep landing, workers are SIGKILLed at
// random and restarted, a fourth joins mid-run; the sink ends equal to a
// batch INSERT over the same objects, row for row. It also measures how
// long a killed worker's planned file takes to reach the sink through
// another worker (ack_wait 1s), logged as "takeover".
func TestWorkersNotifications(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	ns, srv := needNotify(t)
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	bucket := newBucket(t, srv, "workers")
	up := &inputUploader{srv: srv, bucket: bucket, dir: filepath.Join(dir, "in"), rows: workerRows}
	upload := func(n int) { up.upload(t, n) }
	upload(12)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := passThroughTables(bucket, dir)
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
		"WITH (name = 'feed', trigger = '200 milliseconds', workers = 4, " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	start, kill := f.start, f.kill
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)
	count := func(q string) int {
		n, _ := strconv.Atoi(s.rows(t, q)[0])
		return n
	}

	ws := []*worker{start(), start(), start()}
	rng := rand.New(rand.NewPCG(45, 9))
	var takeovers []time.Duration
	for round := 0; round < workerKills; round++ {
		upload(6)
		time.Sleep(time.Duration(300+rng.IntN(700)) * time.Millisecond)
		if round == 3 {
			ws = append(ws, start()) // a fourth worker joins
		}
		f.alive(ws)
		// Kill a worker in the middle of an epoch when one is caught
		// there (offsets/N written, commits/N not yet), else any.
		i := rng.IntN(len(ws))
		var planned map[int][]string
		for t0 := time.Now(); time.Since(t0) < 2*time.Second; time.Sleep(2 * time.Millisecond) {
			planned = plannedFiles(t, cp)
			if j := workerWith(ws, planned); j >= 0 {
				i = j
				break
			}
		}
		kill(ws[i])
		// What the killed worker had planned and not committed goes to
		// another worker after ack_wait (its slot stays free a while).
		for _, key := range planned[ws[i].cmd.Process.Pid] {
			if d, ok := waitFileInSink(t, s, key, 20*time.Second); ok {
				takeovers = append(takeovers, d)
			}
		}
		ws[i] = start()
	}
	deadline := time.Now().Add(60 * time.Second)
	want := count("SELECT count(*) FROM src WHERE status < 500")
	for {
		got := count("SELECT count(*) FROM out")
		if got >= want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sink has %d rows, want %d", got, want)
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // anything still in flight would show as a duplicate
	f.killAll()
	s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
	s.compare(t, up.files*workerRows*3/5)
	sort.Slice(takeovers, func(i, j int) bool { return takeovers[i] < takeovers[j] })
	t.Logf("%d files, %d kills, takeover of a killed worker's planned file: %v", up.files, workerKills, takeovers)
}

// workerWith is the index of a worker that has planned files, or -1.
func workerWith(ws []*worker, planned map[int][]string) int {
	for i, w := range ws {
		if len(planned[w.cmd.Process.Pid]) > 0 {
			return i
		}
	}
	return -1
}

// plannedFiles lists the files of offsets/N without commits/N in each
// worker slot, by the pid holding the slot's lock.
func plannedFiles(t *testing.T, cp string) map[int][]string {
	t.Helper()
	out := map[int][]string{}
	slots, _ := filepath.Glob(filepath.Join(cp, "workers", "*"))
	for _, sd := range slots {
		pid := lockPID(sd)
		offs, _ := filepath.Glob(filepath.Join(sd, "offsets", "*"))
		for _, o := range offs {
			ep := filepath.Base(o)
			if _, err := os.Stat(filepath.Join(sd, "commits", ep)); err == nil {
				continue
			}
			data, err := os.ReadFile(o)
			if err != nil {
				continue
			}
			var rec struct {
				Source struct {
					Files []struct {
						Key string `json:"key"`
					} `json:"files"`
				} `json:"source"`
			}
			if json.Unmarshal(data, &rec) == nil {
				for _, f := range rec.Source.Files {
					out[pid] = append(out[pid], f.Key)
				}
			}
		}
	}
	return out
}

// lockPID reads the owner pid out of a slot's lock file ("pid N on host").
func lockPID(slotDir string) int {
	data, err := os.ReadFile(filepath.Join(slotDir, ".lock"))
	if err != nil {
		return 0
	}
	var pid int
	if _, err := fmt.Sscanf(string(data), "pid %d", &pid); err != nil {
		return 0
	}
	return pid
}

// waitFileInSink waits until rows of the input file key are in the sink;
// ok false when they already were (the kill came after the flush).
func waitFileInSink(t *testing.T, s *scenario, key string, within time.Duration) (time.Duration, bool) {
	t.Helper()
	var i int
	if _, err := fmt.Sscanf(filepath.Base(key), "f%03d.json", &i); err != nil {
		return 0, false
	}
	q := fmt.Sprintf("SELECT id FROM out WHERE id >= %d AND id < %d LIMIT 1", i*workerRows, (i+1)*workerRows)
	t0 := time.Now()
	if len(s.rows(t, q)) > 0 {
		return 0, false
	}
	for time.Since(t0) < within {
		if len(s.rows(t, q)) > 0 {
			return time.Since(t0), true
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not reach the sink within %s of its worker's death", key, within)
	return 0, false
}
