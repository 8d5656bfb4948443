package crashtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// keyedRows per input file; keyedStep is the event time between two
// rows, so a file spans keyedRows*keyedStep and a one-minute window
// takes rows of several files.
const (
	keyedRows = 400
	keyedStep = 50 * time.Millisecond
	keyedKill = 22
)

var keyedBase = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// keyedFile is input file i: ids i*keyedRows.., 17 statuses, event times
// rising with i (files land in event-time order).
func keyedFile(i int) []byte {
	var b strings.Builder
	for j := 0; j < keyedRows; j++ {
		id := i*keyedRows + j
		ts := keyedBase.Add(time.Duration(id) * keyedStep)
		fmt.Fprintf(&b, "{\"id\": %d, \"status\": %d, \"ts\": \"%s\"}\n", id, 200+(id*7)%17, ts.Format(time.RFC3339Nano))
	}
	return []byte(b.String())
}

// keyedUploader puts keyedFile inputs in/f0000.json, f0001.json, ...
// into bucket with an event each.
type keyedUploader struct {
	srv    *s3server.Server
	bucket string
	files  int // uploaded so far
}

func (u *keyedUploader) upload(t *testing.T, n int) {
	t.Helper()
	for i := u.files; i < u.files+n; i++ {
		putNotified(t, u.srv, u.bucket, fmt.Sprintf("in/f%04d.json", i), keyedFile(i))
	}
	u.files += n
}

// TestKeyedWorkersNotifications: one tumbling-window count (GROUP BY
// TUMBLE(ts, '1 minute'), status) shared by several `sluice` processes
// (workers = 4, 16 partitions, 3-second leases) fed by Versity events
// through NATS. Three start, files keep landing, a worker is SIGKILLed
// and restarted at least keyedKill times, a fourth joins mid-run; once
// the queue is drained the four live workers must hold four of the 16
// partitions each, a last file moves the watermark past every earlier
// window, and the sink must equal the batch GROUP BY over the same
// files, row for row. It logs how long a killed worker's partitions
// took to be leased by the others ("takeover").
func TestKeyedWorkersNotifications(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	ns, srv := needNotify(t)
	t0 := time.Now()
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	built := time.Since(t0)
	bucket := newBucket(t, srv, "keyed")
	name := fmt.Sprintf("agg%d", bucketN.Add(1))
	files := 0
	put := func(i int, data []byte) {
		t.Helper()
		putNotified(t, srv, bucket, fmt.Sprintf("in/f%04d.json", i), data)
	}
	upload := func(n int) {
		t.Helper()
		for i := files; i < files+n; i++ {
			put(i, keyedFile(i))
		}
		files += n
	}
	upload(6)
	cp := filepath.Join(dir, "cp")
	out := filepath.Join(dir, "out")
	session := s3Session(srv)
	tables := []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '" + out + "/'",
		"CREATE TABLE IF NOT EXISTS batch (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM src " +
		"GROUP BY TUMBLE(ts, '1 minute'), status " +
		"WITH (name = '" + name + "', trigger = '200 milliseconds', workers = 4, partitions = 16, lock_ttl = '3 seconds', " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	start, kill := f.start, f.kill
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)

	leases := watchLeases(t, ns, name)

	ws := []*worker{start(), start(), start()}
	// Wait for the workers to lease every partition between them.
	if _, err := leases.waitAll(16, nil, 30*time.Second); err != nil {
		t.Fatalf("partitions not leased: %v\n%s", err, ws[0].stderr.String())
	}
	rng := rand.New(rand.NewPCG(46, 12))
	var (
		mu        sync.Mutex
		takeovers []time.Duration
		wg        sync.WaitGroup
	)
	for round := 0; round < keyedKill; round++ {
		upload(2)
		time.Sleep(time.Duration(200+rng.IntN(500)) * time.Millisecond)
		if round == 8 {
			ws = append(ws, start()) // a fourth worker joins
		}
		f.alive(ws)
		i := rng.IntN(len(ws))
		pid := ws[i].cmd.Process.Pid
		held := leases.heldBy(pid)
		killed := time.Now()
		kill(ws[i])
		ws[i] = start()
		if len(held) > 0 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := leases.waitAll(16, func(h map[int]string) bool {
					for _, p := range held {
						if h[p] == "" || ownerPID(h[p]) == pid {
							return false
						}
					}
					return true
				}, 30*time.Second)
				if err != nil {
					t.Errorf("partitions %v of killed pid %d: %v", held, pid, err)
					return
				}
				mu.Lock()
				_ = d
				takeovers = append(takeovers, time.Since(killed))
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	// Drained: every file's message acknowledged, then one last file an
	// hour later closes every earlier window.
	waitDrained(t, ns, bucket, 60*time.Second)
	// Balanced: once the killed workers' keys are gone, the four live
	// workers hold four partitions each.
	live := map[int]bool{}
	for _, w := range ws {
		live[w.cmd.Process.Pid] = true
	}
	balanced, err := leases.waitAll(16, func(h map[int]string) bool {
		per := map[int]int{}
		for _, v := range h {
			if !live[ownerPID(v)] {
				return false
			}
			per[ownerPID(v)]++
		}
		for pid := range live {
			if per[pid] != 4 {
				return false
			}
		}
		return true
	}, 30*time.Second)
	if err != nil {
		t.Fatalf("partitions not balanced over the 4 live workers: %v", err)
	}
	// Windows closed while workers were being killed, not only at the end.
	mid := s.rows(t, "SELECT count(*) FROM out")[0]
	if mid == "0" {
		t.Fatal("no window reached the sink during the run")
	}
	closer := keyedBase.Add(time.Duration(files*keyedRows)*keyedStep + time.Hour)
	put(files, []byte(fmt.Sprintf("{\"id\": -1, \"status\": 1, \"ts\": \"%s\"}\n", closer.Format(time.RFC3339Nano))))
	s.exec(t, "INSERT INTO batch SELECT TUMBLE(ts, '1 minute').start AS w, status, count(*) FROM src GROUP BY TUMBLE(ts, '1 minute'), status "+
		"HAVING w < TIMESTAMP '"+closer.Add(-time.Minute).Format("2006-01-02 15:04:05")+"'")
	want := s.rows(t, "SELECT w, status, n FROM batch ORDER BY w, status")
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := s.rows(t, "SELECT count(*) FROM out")[0]
		if got == strconv.Itoa(len(want)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sink has %s rows, want %d\n%s", got, len(want), ws[0].stderr.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // anything still in flight would show as a duplicate
	f.killAll()
	sameRows(t, s, "SELECT w, status, n FROM out ORDER BY w, status", want)
	sort.Slice(takeovers, func(i, j int) bool { return takeovers[i] < takeovers[j] })
	for _, d := range takeovers {
		if d > 30*time.Second {
			t.Errorf("takeover took %s", d)
		}
	}
	t.Logf("%d files, %d windows x statuses (%s written before the last file), %d kills, 4 workers at most, built in %s, ran in %s, balanced 4x4 %s after the drain; takeover of a killed worker's partitions (lease TTL 3s): %v",
		files, len(want), mid, keyedKill, built.Round(time.Second), time.Since(t0)-built, balanced.Round(time.Millisecond), takeovers)
	// What the workers complained about (dropped partitions, failed
	// reads): each is recovered from, but worth seeing.
	f.logComplaints()
}

// ownerPID is the pid in a lease value "<host>-<pid>-<rand>#<gen>".
func ownerPID(v string) int {
	w, _, _ := strings.Cut(v, "#")
	parts := strings.Split(w, "-")
	if len(parts) < 3 {
		return 0
	}
	pid, _ := strconv.Atoi(parts[len(parts)-2])
	return pid
}

// leaseWatch reads a keyed stream's lease bucket from outside.
type leaseWatch struct {
	js     jetstream.JetStream
	bucket string
	// ttl is the stream's lease TTL: older entries count as expired.
	ttl time.Duration
}

// watchLeases watches the partition leases of the keyed stream name
// through a NATS connection of its own, closed when the test ends.
func watchLeases(t *testing.T, ns *natsserver.Server, name string) *leaseWatch {
	t.Helper()
	nc, err := nats.Connect(ns.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return &leaseWatch{js: js, bucket: "sluice-" + name, ttl: 3 * time.Second}
}

// holders is partition -> lease value, skipping expired entries.
func (l *leaseWatch) holders(ttl time.Duration) map[int]string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	kv, err := l.js.KeyValue(ctx, l.bucket)
	if err != nil {
		return nil
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return nil
	}
	out := map[int]string{}
	for k := range keys.Keys() {
		p, err := strconv.Atoi(strings.TrimPrefix(k, "p."))
		if !strings.HasPrefix(k, "p.") || err != nil {
			continue
		}
		e, err := kv.Get(ctx, k)
		if err != nil || time.Since(e.Created()) > ttl {
			continue
		}
		out[p] = string(e.Value())
	}
	return out
}

func (l *leaseWatch) heldBy(pid int) []int {
	var out []int
	for p, v := range l.holders(l.ttl) {
		if ownerPID(v) == pid {
			out = append(out, p)
		}
	}
	sort.Ints(out)
	return out
}

// waitAll waits until all parts partitions are leased and ok (when set)
// holds; it returns how long that took.
func (l *leaseWatch) waitAll(parts int, ok func(map[int]string) bool, within time.Duration) (time.Duration, error) {
	t0 := time.Now()
	for time.Since(t0) < within {
		h := l.holders(l.ttl)
		if len(h) == parts && (ok == nil || ok(h)) {
			return time.Since(t0), nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0, fmt.Errorf("not within %s: %v", within, l.holders(l.ttl))
}

// waitDrained waits until the bucket's consumer has nothing pending or
// unacknowledged.
func waitDrained(t *testing.T, ns interface {
	Consumer(stream, durable string) (int, int, error)
}, durable string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		p, a, err := ns.Consumer("s3events", durable)
		if err == nil && p == 0 && a == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue not drained: %d pending, %d unacked (%v)", p, a, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
