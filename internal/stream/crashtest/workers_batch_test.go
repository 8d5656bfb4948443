package crashtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestWorkersBatchedEpochs: workers = 3 with max_files_per_trigger = 4,
// so an epoch reads several files, each written by the sink under its
// own file's id. Workers are SIGKILLed in the middle of epochs (a file
// of a killed epoch then goes to another worker alone or in another
// batch, and the dead slot's replay rewrites the whole batch); the sink
// ends equal to a batch INSERT, row for row, and some epochs did read
// more than one file.
func TestWorkersBatchedEpochs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	ns, srv := needNotify(t)
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	bucket := newBucket(t, srv, "wbatch")
	const rows = 1000
	up := &inputUploader{srv: srv, bucket: bucket, dir: filepath.Join(dir, "in"), rows: rows}
	upload := func(n int) { up.upload(t, n) }
	upload(12)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := passThroughTables(bucket, dir)
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
		"WITH (name = 'feed', trigger = '300 milliseconds', workers = 3, max_files_per_trigger = 4, " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	start := f.start
	kill := f.kill
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)
	count := func(q string) int {
		n, _ := strconv.Atoi(s.rows(t, q)[0])
		return n
	}
	ws := []*worker{start(), start(), start()}
	rng := rand.New(rand.NewPCG(12, 4))
	killedMid := 0
	for round := 0; round < 6; round++ {
		upload(8)
		time.Sleep(time.Duration(200+rng.IntN(500)) * time.Millisecond)
		f.alive(ws)
		i := rng.IntN(len(ws))
		for t0 := time.Now(); time.Since(t0) < 2*time.Second; time.Sleep(2 * time.Millisecond) {
			if j := workerWith(ws, plannedFiles(t, cp)); j >= 0 {
				i = j
				killedMid++
				break
			}
		}
		kill(ws[i])
		ws[i] = start()
	}
	want := count("SELECT count(*) FROM src WHERE status < 500")
	for deadline := time.Now().Add(60 * time.Second); count("SELECT count(*) FROM out") < want; time.Sleep(300 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("sink has %d rows, want %d", count("SELECT count(*) FROM out"), want)
		}
	}
	time.Sleep(1500 * time.Millisecond) // anything still in flight would show as a duplicate
	f.killAll()
	s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
	s.compare(t, up.files*rows*3/5)

	// Some epochs read several files (else this tested nothing new).
	most, epochs := 0, 0
	commits, _ := filepath.Glob(filepath.Join(cp, "workers", "*", "commits", "*"))
	for _, c := range commits {
		data, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		var rec struct {
			Files int `json:"files"`
		}
		if json.Unmarshal(data, &rec) == nil && rec.Files > 0 {
			epochs++
			most = max(most, rec.Files)
		}
	}
	if most < 2 || most > 4 {
		t.Errorf("the largest epoch read %d files, want 2 to 4 (max_files_per_trigger = 4)", most)
	}
	t.Logf("%d files in %d epochs (at most %d per epoch), %d of 6 kills mid-epoch", up.files, epochs, most, killedMid)
}
