package crashtest

import (
	"bytes"
	"context"
	"fmt"
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

	"sluice/internal/testutil/s3server"
)

// worker is one `sluice sql` process running the shared stream.
type worker struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	exited chan error
}

// buildSluice builds cmd/sluice into dir: the multi-process tests run
// the real binary, so a kill is a real SIGKILL of a real process.
func buildSluice(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	return bin
}

// newBucket creates a bucket named after prefix, this process and a
// counter, so tests sharing one S3 server never share a bucket.
func newBucket(t *testing.T, srv *s3server.Server, prefix string) string {
	t.Helper()
	bucket := fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), bucketN.Add(1))
	if err := srv.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	return bucket
}

// putObject uploads one object to the S3 server.
func putObject(t *testing.T, srv *s3server.Server, bucket, key string, data []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(data)}); err != nil {
		t.Fatal(err)
	}
}

// putNotified is putObject to the gateway that publishes to NATS,
// counted in notifyPuts (waitEvents waits for that many events).
func putNotified(t *testing.T, srv *s3server.Server, bucket, key string, data []byte) {
	t.Helper()
	putObject(t, srv, bucket, key, data)
	notifyPuts++
}

// inputUploader writes the generated input files f<N>.json (rows each,
// see writeInputsFrom) under dir and uploads them to bucket/in/.
type inputUploader struct {
	srv    *s3server.Server
	bucket string
	dir    string
	rows   int
	files  int  // uploaded so far
	quiet  bool // srv publishes no events (not the notify gateway)
}

func (u *inputUploader) upload(t *testing.T, n int) {
	t.Helper()
	writeInputsFrom(t, u.dir, u.files, n, u.rows)
	for i := u.files; i < u.files+n; i++ {
		name := fmt.Sprintf("f%03d.json", i)
		data, err := os.ReadFile(filepath.Join(u.dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if u.quiet {
			putObject(t, u.srv, u.bucket, "in/"+name, data)
		} else {
			putNotified(t, u.srv, u.bucket, "in/"+name, data)
		}
	}
	u.files += n
}

// sqlScript joins statements into one `sluice sql -e` script.
func sqlScript(groups ...[]string) string {
	var all []string
	for _, g := range groups {
		all = append(all, g...)
	}
	return strings.Join(all, ";\n") + ";"
}

// fleet starts `sluice sql` worker processes running one script, each
// with a data directory of its own (processes do not share a catalog),
// and kills them all when the test ends.
type fleet struct {
	t      *testing.T
	bin    string
	dir    string
	script string
	n      int
	all    []*worker
}

func newFleet(t *testing.T, bin, dir, script string) *fleet {
	f := &fleet{t: t, bin: bin, dir: dir, script: script}
	t.Cleanup(f.killAll)
	return f
}

// start runs one more worker.
func (f *fleet) start() *worker {
	f.t.Helper()
	f.n++
	data := filepath.Join(f.dir, "data"+strconv.Itoa(f.n))
	w := &worker{cmd: exec.Command(f.bin, "sql", "--data-dir", data, "-e", f.script), stderr: &bytes.Buffer{}, exited: make(chan error, 1)}
	w.cmd.Stderr = w.stderr
	if err := w.cmd.Start(); err != nil {
		f.t.Fatal(err)
	}
	go func() { w.exited <- w.cmd.Wait() }()
	f.all = append(f.all, w)
	return w
}

// kill SIGKILLs w and waits for it to be gone; a worker that was
// already waited for (ProcessState set) is left alone.
func (f *fleet) kill(w *worker) {
	if w.cmd.ProcessState == nil {
		_ = w.cmd.Process.Signal(syscall.SIGKILL)
		<-w.exited
	}
}

// killAll kills every worker still running.
func (f *fleet) killAll() {
	for _, w := range f.all {
		f.kill(w)
	}
}

// alive fails the test when one of ws exited by itself: a worker only
// ends by a kill in these tests.
func (f *fleet) alive(ws []*worker) {
	f.t.Helper()
	for _, w := range ws {
		select {
		case err := <-w.exited:
			f.t.Fatalf("a worker exited by itself (%v): %s", err, w.stderr.String())
		default:
		}
	}
}

// passThroughTables creates the pass-through tests' tables: src over
// bucket/in/ (the files inputUploader writes), the stream's sink out
// and batch, the batch INSERT to compare with (scenario.compare).
func passThroughTables(bucket, dir string) []string {
	return []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
		"CREATE TABLE IF NOT EXISTS batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
	}
}

// logComplaints logs what the workers complained about (dropped
// partitions, failed reads), each line once with its count: each is
// recovered from, but worth seeing.
func (f *fleet) logComplaints() {
	seen := map[string]int{}
	for _, w := range f.all {
		for _, line := range strings.Split(w.stderr.String(), "\n") {
			if strings.HasPrefix(line, "keyed stream") {
				seen[line]++
			}
		}
	}
	for line, k := range seen {
		f.t.Logf("%d x %s", k, line)
	}
}

// sameRows runs q and fails unless it returns want, row for row; it
// returns the rows.
func sameRows(t *testing.T, s *scenario, q string, want []string) []string {
	t.Helper()
	got := s.rows(t, q)
	if len(got) != len(want) {
		t.Fatalf("stream wrote %d rows, batch %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d: stream %q, batch %q", i, got[i], want[i])
		}
	}
	return got
}
