package file

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/connector"
	"sluice/internal/storage"
	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// notifyRig is a real NATS server with JetStream and a real Versity
// gateway publishing its S3 events into it.
type notifyRig struct {
	t     *testing.T
	nats  *natsserver.Server
	s3    *s3server.Server
	queue string
	opts  map[string]string
	area  connector.CheckpointArea
}

func newNotifyRig(t *testing.T, ackWait string) *notifyRig {
	t.Helper()
	if testing.Short() {
		t.Skip("starts NATS and an S3 server")
	}
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("s3events", "s3.events"); err != nil {
		t.Fatal(err)
	}
	srv := s3server.StartTB(t, "--event-nats-url", ns.URL, "--event-nats-topic", "s3.events")
	for _, b := range []string{"lake", "other"} {
		if err := srv.CreateBucket(b); err != nil {
			t.Fatal(err)
		}
	}
	name := strings.NewReplacer("/", "_").Replace(t.Name())
	storage.DropMemStore(name)
	r := &notifyRig{t: t, nats: ns, s3: srv, queue: ns.URL + "/s3events/sluice?ack_wait=" + ackWait,
		area: connector.CheckpointArea{Store: storage.NamedMemStore(name), Prefix: "cp/sources/0/"}}
	r.opts = map[string]string{
		"endpoint": srv.Endpoint, "region": srv.Region, "path_style": "true",
		"access_key": srv.AccessKey, "secret_key": srv.SecretKey,
		"discovery": "notifications", "queue": r.queue, "path_glob_filter": "*.json",
	}
	return r
}

func (r *notifyRig) put(bucket, key string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := r.s3.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key),
		Body: bytes.NewReader([]byte(`{"id": 1}` + "\n"))})
	if err != nil {
		r.t.Fatal(err)
	}
}

func (r *notifyRig) source(extra map[string]string, committed int64) *StreamSource {
	r.t.Helper()
	opts := map[string]string{}
	for k, v := range r.opts {
		opts[k] = v
	}
	for k, v := range extra {
		opts[k] = v
	}
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "land", Using: "json", Location: "s3://lake/in/",
		Options: opts, Schema: schema(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true})})
	if err != nil {
		r.t.Fatal(err)
	}
	ss, err := NewStreamSource(src)
	if err != nil {
		r.t.Fatal(err)
	}
	ss.Warnf = func(string, ...any) {}
	if err := ss.Recover(context.Background(), r.area, committed); err != nil {
		r.t.Fatal(err)
	}
	return ss
}

// latestKeys is one Latest's files, or nil.
func latestKeys(t *testing.T, ss *StreamSource) (connector.Offset, []string) {
	t.Helper()
	off, err := ss.Latest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if off == nil {
		return nil, nil
	}
	fo, err := decodeOffset(off)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range fo.Files {
		keys = append(keys, f.Key)
	}
	return off, keys
}

// drain runs epochs until want keys were read or the deadline; it fails
// on any key read twice.
func drain(t *testing.T, ss *StreamSource, epoch *int64, read map[string]int, want int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		total := 0
		for _, n := range read {
			total += n
		}
		if total >= want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("read %v, want %d files", read, want)
		}
		off, keys := latestKeys(t, ss)
		if off == nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		for _, k := range keys {
			read[k]++
			if read[k] > 1 {
				t.Fatalf("%s read twice", k)
			}
		}
		if err := ss.Commit(context.Background(), *epoch, off); err != nil {
			t.Fatal(err)
		}
		*epoch++
	}
}

// TestNotificationsS3 streams the objects Versity announces over NATS:
// the backfill, new objects once each whatever else the queue carries
// (another bucket, a non-matching name, a key outside the location, a
// malformed message, an AWS-style URL-encoded duplicate, Versity's test
// event), and a crash after planning whose redelivered messages are
// harmless.
func TestNotificationsS3(t *testing.T) {
	r := newNotifyRig(t, "1s")
	r.put("lake", "in/old.json") // before the stream: the backfill finds it
	ss := r.source(map[string]string{"max_files_per_trigger": "2"}, -1)
	defer ss.Close()
	r.put("lake", "in/a b.json")
	r.put("lake", "in/e=f.json")
	r.put("lake", "in/x.csv")
	r.put("lake", "out/y.json")
	r.put("other", "in/z.json")
	if err := r.nats.Publish("s3.events", []byte("not json")); err != nil {
		t.Fatal(err)
	}
	aws := `{"Records":[{"eventVersion":"2.1","eventSource":"aws:s3","eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"lake"},"object":{"key":"in/e%3Df.json","size":10,"eTag":"abc"}}}]}`
	if err := r.nats.Publish("s3.events", []byte(aws)); err != nil {
		t.Fatal(err)
	}
	r.put("lake", "in/sub/deep.json")
	read := map[string]int{}
	var epoch int64
	drain(t, ss, &epoch, read, 4, 20*time.Second)
	want := []string{"in/a b.json", "in/e=f.json", "in/old.json", "in/sub/deep.json"}
	var got []string
	for k := range read {
		got = append(got, k)
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("read %v, want %v", got, want)
	}
	// Everything else is counted, nothing stays unacknowledged.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if off, keys := latestKeys(t, ss); off != nil {
			t.Fatalf("read again: %v", keys)
		}
		st, _ := ss.NotifyStats()
		pending, ackPending, err := r.nats.Consumer("s3events", "sluice")
		if err != nil {
			t.Fatal(err)
		}
		// Filtered is x.csv and out/y.json, at least one of them: under
		// load Versity was once seen to publish one event fewer (and one
		// more test event), which is the gateway's doing, not the stream's.
		if st.Malformed == 1 && st.Foreign >= 2 && st.Filtered >= 1 && pending == 0 && ackPending == 0 && st.Held == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v, consumer pending %d, ack pending %d", st, pending, ackPending)
		}
		time.Sleep(100 * time.Millisecond)
	}

	desc := map[string]string{}
	for _, kv := range ss.StreamDescription() {
		desc[kv[0]] = kv[1]
	}
	if desc["queue_malformed"] != "1" || desc["queue_messages"] == "0" || desc["queue_backlog_unacked"] != "0" || desc["queue"] == "" {
		t.Errorf("DESCRIBE rows %v", desc)
	}

	// A crash after planning: the new object's message is not acked; the
	// restarted source replays the planned epoch (as the runner does) and
	// then gets the message again, and skips it as seen.
	r.put("lake", "in/late.json")
	var off connector.Offset
	deadline = time.Now().Add(10 * time.Second)
	for off == nil {
		var keys []string
		if off, keys = latestKeys(t, ss); off != nil && strings.Join(keys, ",") != "in/late.json" {
			t.Fatalf("planned %v", keys)
		}
		if time.Now().After(deadline) {
			t.Fatal("no event for in/late.json")
		}
		time.Sleep(50 * time.Millisecond)
	}
	ss.Close() // the process died: the message goes back after ack_wait
	ss2 := r.source(nil, epoch-1)
	defer ss2.Close()
	if err := ss2.Commit(context.Background(), epoch, off); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for {
		if off, keys := latestKeys(t, ss2); off != nil {
			t.Fatalf("redelivery read again: %v", keys)
		}
		st, _ := ss2.NotifyStats()
		if st.Duplicate >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no redelivery seen: %+v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestNotificationsNoBackfill: discovery_backfill = false reads only what
// the queue announces from the stream's start on.
func TestNotificationsNoBackfill(t *testing.T) {
	r := newNotifyRig(t, "5s")
	// Written into the gateway's posix root behind its back: no event.
	quiet := func(name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(r.s3.Dir, "lake", "in"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(r.s3.Dir, "lake", "in", name), []byte("{\"id\": 1}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	quiet("quiet.json")
	ss := r.source(map[string]string{"discovery_backfill": "false"}, -1)
	defer ss.Close()
	r.put("lake", "in/loud.json")
	read := map[string]int{}
	var epoch int64
	drain(t, ss, &epoch, read, 1, 20*time.Second)
	if read["in/loud.json"] != 1 || len(read) != 1 {
		st, _ := ss.NotifyStats()
		t.Fatalf("read %v, stats %+v, backfilled %v", read, st, ss.notify.backfilled)
	}
	// The same with the backfill: the quiet file is found by listing.
	r2 := &notifyRig{t: t, nats: r.nats, s3: r.s3, opts: r.opts,
		area: connector.CheckpointArea{Store: r.area.Store, Prefix: "cp2/sources/0/"}}
	r2.opts["queue"] = r.nats.URL + "/s3events/second"
	ss2 := r2.source(nil, -1)
	defer ss2.Close()
	read = map[string]int{}
	epoch = 0
	drain(t, ss2, &epoch, read, 2, 20*time.Second)
	if read["in/loud.json"] != 1 || read["in/quiet.json"] != 1 {
		t.Fatalf("with backfill read %v", read)
	}
	// A restart after the backfill committed does not list again.
	ss2.Close()
	quiet("quiet2.json")
	ss3 := r2.source(nil, epoch-1)
	defer ss3.Close()
	if off, keys := latestKeys(t, ss3); off != nil {
		t.Fatalf("second start read %v", keys)
	}
}
