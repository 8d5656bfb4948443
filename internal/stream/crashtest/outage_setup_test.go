package crashtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/javabroker"
	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// outage is a queue (NATS, Kafka or SQS) and an S3 gateway of a queue
// outage test's own (the shared ones stay up), a built sluice, and the
// stream's tables.
type outage struct {
	srv     *s3server.Server
	dir     string
	bin     string
	cp      string
	in      string
	files   int
	session []string
	tables  []string
	s       *scenario
	// queue is the stream's queue URL; secret a password in it (or "").
	queue, secret string
	// down and up stop and restart the broker, over the same data.
	down func()
	up   func() error
	// sent tells the queue of an uploaded object (SQS: the gateway does
	// not publish there); delivered waits until it holds n events.
	sent      func(t *testing.T, key string)
	delivered func(t *testing.T, n int) bool
	// cluster is kind nats-cluster's.
	cluster *natsserver.Cluster
}

// newOutage starts the broker of kind nats, kafka or sqs and a gateway
// publishing its events to it (the test sends SQS's itself).
func newOutage(t *testing.T, kind string) *outage {
	t.Helper()
	o := &outage{dir: t.TempDir(), sent: func(*testing.T, string) {}}
	var gwArgs []string
	switch kind {
	case "nats":
		ns, err := natsserver.Start(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ns.Stop)
		if err := ns.AddStream("s3events", eventSubject); err != nil {
			t.Fatal(err)
		}
		gwArgs = []string{"--event-nats-url", ns.URL, "--event-nats-topic", eventSubject}
		o.queue = ns.URL + "/s3events/feed?ack_wait=1s"
		o.down, o.up = ns.Down, ns.Up
		o.delivered = func(t *testing.T, n int) bool {
			got, _ := ns.StreamMsgs("s3events")
			return got >= uint64(n)+1 // and the gateway's test event
		}
	case "nats-cluster":
		// Three nodes, the events stream R3 (so Sluice's own objects are
		// too); down kills the node leading the events stream, up
		// restarts that node.
		cl := natsserver.StartCluster(t, 3)
		if err := cl.AddStream("s3events", 3, eventSubject); err != nil {
			t.Fatal(err)
		}
		o.cluster = cl
		gwArgs = []string{"--event-nats-url", cl.URL, "--event-nats-topic", eventSubject}
		o.queue = cl.URL + "/s3events/feed?ack_wait=1s"
		downed := -1
		o.down = func() {
			i, err := cl.StreamLeader("s3events")
			if err != nil {
				t.Fatal(err)
			}
			downed = i
			cl.Servers[i].Down()
		}
		o.up = func() error { return cl.Servers[downed].Up() }
		o.delivered = func(t *testing.T, n int) bool {
			got, _ := cl.StreamMsgs("s3events")
			return got >= uint64(n)+1
		}
	case "kafka":
		kb, err := javabroker.StartKafka()
		if err != nil {
			integration.Unavailable(t, "%v", err)
		}
		t.Cleanup(kb.Stop)
		cl, err := kgo.NewClient(kgo.SeedBrokers(kb.Addr))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err = kadm.NewClient(cl).CreateTopic(ctx, 2, 1, nil, "s3-events") // the gateway wants it to exist
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		gwArgs = []string{"--event-kafka-url", kb.Addr, "--event-kafka-topic", "s3-events"}
		o.queue = "kafka://" + kb.Addr + "/s3-events/feed?session_timeout=6s" // the broker's least
		o.down, o.up = kb.Down, kb.Up
		o.delivered = func(t *testing.T, n int) bool {
			ends, err := kadm.NewClient(cl).ListEndOffsets(context.Background(), "s3-events")
			got := int64(0)
			ends.Each(func(lo kadm.ListedOffset) { got += lo.Offset })
			return err == nil && got >= int64(n)
		}
	case "sqs":
		b, err := javabroker.StartElasticMQ("events")
		if err != nil {
			integration.Unavailable(t, "%v", err)
		}
		t.Cleanup(b.Stop)
		o.secret = "sqs-secret-4711"
		o.queue = "sqs://sluice:" + o.secret + "@" + strings.TrimPrefix(b.Endpoint, "http://") + "/000000000000/events?scheme=http&visibility=2s"
		o.down, o.up = b.Down, b.Up
		client := sqs.New(sqs.Options{Region: "us-east-1", BaseEndpoint: aws.String(b.Endpoint),
			Credentials: credentials.NewStaticCredentialsProvider("sluice", o.secret, "")})
		o.sent = func(t *testing.T, key string) {
			t.Helper()
			ev := `{"Records":[{"eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"outage"},"object":{"key":"` + key + `"}}}]}`
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(b.Endpoint + "/000000000000/events"), MessageBody: aws.String(ev)}); err != nil {
				t.Fatal(err)
			}
		}
		o.delivered = func(*testing.T, int) bool { return true }
	default:
		t.Fatalf("no queue kind %q", kind)
	}
	srv, err := s3server.Start(gwArgs...)
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	t.Cleanup(srv.Stop)
	o.srv = srv
	o.bin = buildSluice(t, o.dir)
	if err := srv.CreateBucket("outage"); err != nil {
		t.Fatal(err)
	}
	o.in, o.cp = filepath.Join(o.dir, "in"), filepath.Join(o.dir, "cp")
	o.session = s3Session(srv)
	o.tables = passThroughTables("outage", o.dir)
	o.s = &scenario{dataDir: filepath.Join(o.dir, "check"), session: o.session}
	o.s.exec(t, o.tables...)
	return o
}

// stmt is the stream: two workers over the queue, 200 rows a file of
// which 3/5 pass.
func (o *outage) stmt() string {
	return "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
		"WITH (name = 'feed', trigger = '200 milliseconds', workers = 2, " +
		"discovery = 'notifications', queue = '" + o.queue + "', checkpoint_location = '" + o.cp + "')"
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
		putObject(t, o.srv, "outage", "in/"+name, data)
		o.sent(t, "in/"+name)
	}
	o.files += n
	for deadline := time.Now().Add(20 * time.Second); !o.delivered(t, o.files); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the gateway's events did not reach the queue")
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
