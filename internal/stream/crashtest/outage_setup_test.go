package crashtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// outage is a NATS server and an S3 gateway of a queue outage test's own
// (the shared ones stay up), a built sluice, and the stream's tables.
type outage struct {
	ns      *natsserver.Server
	srv     *s3server.Server
	dir     string
	bin     string
	cp      string
	in      string
	files   int
	events  uint64
	session []string
	tables  []string
	s       *scenario
}

func newOutage(t *testing.T, bucket string) *outage {
	t.Helper()
	ns, err := natsserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Stop)
	if err := ns.AddStream("s3events", eventSubject); err != nil {
		t.Fatal(err)
	}
	srv, err := s3server.Start("--event-nats-url", ns.URL, "--event-nats-topic", eventSubject)
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	t.Cleanup(srv.Stop)
	o := &outage{ns: ns, srv: srv, dir: t.TempDir(), events: 1} // the gateway's test event
	o.bin = filepath.Join(o.dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", o.bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	if err := srv.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	o.in, o.cp = filepath.Join(o.dir, "in"), filepath.Join(o.dir, "cp")
	o.session = s3Session(srv)
	o.tables = []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(o.dir, "out") + "/'",
		"CREATE TABLE IF NOT EXISTS batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(o.dir, "batch") + "/'",
	}
	o.s = &scenario{dataDir: filepath.Join(o.dir, "check"), session: o.session}
	o.s.exec(t, o.tables...)
	return o
}

// stmt is the stream: two workers over the queue, 200 rows a file of
// which 3/5 pass.
func (o *outage) stmt() string {
	return "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
		"WITH (name = 'feed', trigger = '200 milliseconds', workers = 2, " +
		"discovery = 'notifications', queue = '" + o.ns.URL + "/s3events/feed?ack_wait=1s', checkpoint_location = '" + o.cp + "')"
}

// upload puts n more files and waits for their events in the stream.
func (o *outage) upload(t *testing.T, n int) {
	t.Helper()
	writeInputsFrom(t, o.in, o.files, n, 200)
	for i := o.files; i < o.files+n; i++ {
		name := fmt.Sprintf("f%03d.json", i)
		data, err := os.ReadFile(filepath.Join(o.in, name))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err = o.srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("outage"), Key: aws.String("in/" + name), Body: bytes.NewReader(data)})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	o.files += n
	o.events += uint64(n)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if got, _ := o.ns.StreamMsgs("s3events"); got >= o.events {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gateway's events did not reach the stream")
		}
	}
}

func (o *outage) count(t *testing.T) int {
	n, _ := strconv.Atoi(o.s.rows(t, "SELECT count(*) FROM out")[0])
	return n
}

// waitRows waits for the sink to hold every passing row of the files
// uploaded so far; state says what the stream reports on a timeout.
func (o *outage) waitRows(t *testing.T, what string, state func() string) {
	t.Helper()
	want := o.files * 200 * 3 / 5
	for deadline := time.Now().Add(40 * time.Second); o.count(t) < want; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: sink has %d rows, want %d; %s", what, o.count(t), want, state())
		}
	}
}

// commits counts slot 0's commits.
func (o *outage) commits() int {
	c, _ := filepath.Glob(filepath.Join(o.cp, "workers", "0", "commits", "*"))
	return len(c)
}

// compare checks the sink against a batch INSERT over every file.
func (o *outage) compare(t *testing.T) {
	t.Helper()
	o.s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
	o.s.compare(t, o.files*200*3/5)
}
