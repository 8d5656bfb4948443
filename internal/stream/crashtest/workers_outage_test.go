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
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// TestWorkerQueueOutage: a worker (in `sluice serve`) whose NATS server
// goes down says so in DESCRIBE STREAM (last_error names the queue as
// unreachable), commits no epoch while it cannot acknowledge, retries
// with backoff, and once the server is back reads what landed, the
// sink equal to a batch INSERT.
func TestWorkerQueueOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	// A NATS server and a gateway of its own: the shared ones stay up.
	ns, err := natsserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Stop()
	if err := ns.AddStream("s3events", eventSubject); err != nil {
		t.Fatal(err)
	}
	srv, err := s3server.Start("--event-nats-url", ns.URL, "--event-nats-topic", eventSubject)
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer srv.Stop()
	dir := t.TempDir()
	bin := filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	const bucket = "outage"
	if err := srv.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in")
	files, events := 0, uint64(1) // the gateway's test event
	upload := func(n int) {
		t.Helper()
		writeInputsFrom(t, in, files, n, 200)
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
		}
		files += n
		events += uint64(n)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if got, _ := ns.StreamMsgs("s3events"); got >= events {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the gateway's events did not reach the stream")
			}
		}
	}
	upload(3)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
		"CREATE TABLE IF NOT EXISTS batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
	}
	stmt := "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
		"WITH (name = 'feed', trigger = '200 milliseconds', workers = 2, " +
		"discovery = 'notifications', queue = '" + ns.URL + "/s3events/feed?ack_wait=1s', checkpoint_location = '" + cp + "')"
	remote := serveProcess(t, bin, filepath.Join(dir, "served"), "--stream-retry-initial", "200ms", "--stream-retry-max", "1s")
	for _, q := range append(append(append([]string{}, session...), tables...), stmt) {
		remote(q)
	}
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)
	count := func() int {
		n, _ := strconv.Atoi(s.rows(t, "SELECT count(*) FROM out")[0])
		return n
	}
	describe := func() map[string]string {
		d := map[string]string{}
		for _, line := range strings.Split(remote("DESCRIBE STREAM feed"), "\n") {
			if k, v, ok := strings.Cut(line, ","); ok {
				d[k] = strings.Trim(v, `"`)
			}
		}
		return d
	}
	waitRows := func(want int, what string) {
		t.Helper()
		for deadline := time.Now().Add(40 * time.Second); count() < want; time.Sleep(200 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: sink has %d rows, want %d; %v", what, count(), want, describe())
			}
		}
	}
	waitRows(3*200*3/5, "before the outage")
	commits := func() int {
		c, _ := filepath.Glob(filepath.Join(cp, "workers", "0", "commits", "*"))
		return len(c)
	}

	ns.Down()
	t0 := time.Now()
	var d map[string]string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		d = describe()
		if strings.Contains(d["last_error"], "queue unreachable") || strings.Contains(d["last_error"], "no servers available") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("DESCRIBE STREAM does not say the queue is unreachable: %v", d)
		}
	}
	t.Logf("%s after the outage began: state %q, last_error %q", time.Since(t0).Round(time.Millisecond), d["state"], d["last_error"])
	before := commits()
	time.Sleep(3 * time.Second) // several retries
	if got := commits(); got != before {
		t.Errorf("%d epochs committed while the queue was down", got-before)
	}
	if d := describe(); d["state"] == "running" && !strings.Contains(d["last_error"], "unreachable") && !strings.Contains(d["last_error"], "no servers") {
		t.Errorf("DESCRIBE STREAM during the outage: %v", d)
	}

	if err := ns.Up(); err != nil {
		t.Fatal(err)
	}
	upload(3)
	waitRows(files*200*3/5, "after the outage")
	for deadline := time.Now().Add(20 * time.Second); describe()["state"] != "running"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not running again: %v", describe())
		}
	}
	time.Sleep(1200 * time.Millisecond)
	s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
	s.compare(t, files*200*3/5)
}
