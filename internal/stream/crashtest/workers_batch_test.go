package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
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
	bin := filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	bucket := fmt.Sprintf("wbatch%d-%d", os.Getpid(), bucketN.Add(1))
	if err := srv.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	const rows = 1000
	in := filepath.Join(dir, "in")
	files := 0
	upload := func(n int) {
		t.Helper()
		writeInputsFrom(t, in, files, n, rows)
		for i := files; i < files+n; i++ {
			name := fmt.Sprintf("f%03d.json", i)
			data, err := os.ReadFile(filepath.Join(in, name))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			_, err = srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("in/" + name), Body: bytes.NewReader(data)})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			notifyPuts++
		}
		files += n
	}
	upload(12)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
		"CREATE TABLE IF NOT EXISTS batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
		"WITH (name = 'feed', trigger = '300 milliseconds', workers = 3, max_files_per_trigger = 4, " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	script := strings.Join(append(append(append([]string{}, session...), tables...), stmt), ";\n") + ";"
	n := 0
	start := func() *worker {
		t.Helper()
		n++
		w := &worker{cmd: exec.Command(bin, "sql", "--data-dir", filepath.Join(dir, "data"+strconv.Itoa(n)), "-e", script), stderr: &bytes.Buffer{}, exited: make(chan error, 1)}
		w.cmd.Stderr = w.stderr
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { w.exited <- w.cmd.Wait() }()
		return w
	}
	kill := func(w *worker) {
		_ = w.cmd.Process.Signal(syscall.SIGKILL)
		<-w.exited
	}
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)
	count := func(q string) int {
		n, _ := strconv.Atoi(s.rows(t, q)[0])
		return n
	}
	ws := []*worker{start(), start(), start()}
	defer func() {
		for _, w := range ws {
			if w.cmd.ProcessState == nil {
				kill(w)
			}
		}
	}()
	rng := rand.New(rand.NewPCG(12, 4))
	killedMid := 0
	for round := 0; round < 6; round++ {
		upload(8)
		time.Sleep(time.Duration(200+rng.IntN(500)) * time.Millisecond)
		for _, w := range ws {
			select {
			case err := <-w.exited:
				t.Fatalf("a worker exited by itself (%v): %s", err, w.stderr.String())
			default:
			}
		}
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
	for _, w := range ws {
		kill(w)
	}
	s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
	s.compare(t, files*rows*3/5)

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
	t.Logf("%d files in %d epochs (at most %d per epoch), %d of 6 kills mid-epoch", files, epochs, most, killedMid)
}
