package file

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"sluice/internal/connector"
	"sluice/internal/queue"
	"sluice/internal/storage"
	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/javabroker"
	"sluice/internal/testutil/s3server"
)

// TestNotificationsKafkaAvailableNow: Versity publishes its S3 events to
// a real Kafka broker; a source with trigger available_now reads every
// object announced in its first Latest, although a new group member's
// first polls come back empty while it joins (the backlog, end offsets
// minus committed, says there is more), and the next Latest, with the
// messages acknowledged, finds the queue drained. Poison ahead of the
// events in the topic (poisonMessages) holds nothing back: it is
// acknowledged, so the committed offsets pass it.
func TestNotificationsKafkaAvailableNow(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka and an S3 server")
	}
	kb, err := javabroker.StartKafka()
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer kb.Stop()
	// The gateway wants its topic to exist.
	cl, err := kgo.NewClient(kgo.SeedBrokers(kb.Addr))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	_, err = kadm.NewClient(cl).CreateTopic(ctx, 2, 1, nil, "s3-events")
	cancel()
	cl.Close()
	if err != nil {
		t.Fatal(err)
	}
	prod, err := kgo.NewClient(kgo.SeedBrokers(kb.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range poisonMessages("lake") {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := prod.ProduceSync(ctx, &kgo.Record{Topic: "s3-events", Partition: int32(i % 2), Value: m}).FirstErr()
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	prod.Close()
	srv := s3server.StartTB(t, "--event-kafka-url", kb.Addr, "--event-kafka-topic", "s3-events")
	if err := srv.CreateBucket("lake"); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"in/a.json", "in/b.json", "in/c.json"} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("lake"), Key: aws.String(k), Body: bytes.NewReader([]byte("{\"id\": 1}\n"))})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Every event is in the topic before the stream starts.
	cl, err = kgo.NewClient(kgo.SeedBrokers(kb.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ends, err := kadm.NewClient(cl).ListEndOffsets(context.Background(), "s3-events")
		n := int64(0)
		ends.Each(func(o kadm.ListedOffset) { n += o.Offset })
		if err == nil && n >= 3+int64(len(poisonMessages("lake"))) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the topic holds %d messages, want 3 events after the poison (%v)", n, err)
		}
	}
	name := strings.NewReplacer("/", "_").Replace(t.Name())
	storage.DropMemStore(name)
	opts := map[string]string{
		"endpoint": srv.Endpoint, "region": srv.Region, "path_style": "true",
		"access_key": srv.AccessKey, "secret_key": srv.SecretKey, "discovery_backfill": "false",
		"discovery": "notifications", "queue": "kafka://" + kb.Addr + "/s3-events/sluice",
	}
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "land", Using: "json", Location: "s3://lake/in/",
		Options: opts, Schema: schema(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true})})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := NewStreamSource(src)
	if err != nil {
		t.Fatal(err)
	}
	ss.Warnf = func(string, ...any) {}
	if err := ss.Recover(context.Background(), connector.CheckpointArea{Store: storage.NamedMemStore(name), Prefix: "cp/sources/0/"}, -1); err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	if err := ss.PrepareAvailableNow(context.Background()); err != nil {
		t.Fatal(err)
	}
	off, keys := latestKeys(t, ss)
	sort.Strings(keys)
	if strings.Join(keys, ",") != "in/a.json,in/b.json,in/c.json" {
		st, _ := ss.NotifyStats()
		t.Fatalf("first Latest read %v, want the three objects; stats %+v", keys, st)
	}
	if err := ss.Commit(context.Background(), 0, off); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if off, keys := latestKeys(t, ss); off != nil {
		t.Fatalf("after the commit Latest read %v, want the queue drained", keys)
	}
	if took := time.Since(t0); took > 10*time.Second {
		t.Errorf("drained Latest took %s", took)
	}
	if st, _ := ss.NotifyStats(); st.NotFiles != poisonNotFiles || st.Malformed != poisonMalformed || st.Backlog != (queue.Backlog{}) {
		t.Errorf("stats %+v, want not_files %d, malformed %d, no backlog", st, poisonNotFiles, poisonMalformed)
	}
}
