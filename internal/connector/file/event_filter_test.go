package file

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

// s3EventFor is an AWS-shaped ObjectCreated event for one key.
func s3EventFor(bucket, key string) []byte {
	return []byte(`{"Records":[{"eventVersion":"2.1","eventSource":"aws:s3","eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"` +
		bucket + `"},"object":{"key":"` + key + `","size":0,"eTag":"d41d8cd98f00b204e9800998ecf8427e"}}}]}`)
}

// poisonMessages are what a queue may carry that must neither be read
// nor hold anything back: poisonNotFiles events for keys that can name
// no file, then poisonMalformed messages that are no S3 event.
func poisonMessages(bucket string) [][]byte {
	return [][]byte{
		s3EventFor(bucket, "in/sub/"),      // a console's "Create folder"
		s3EventFor(bucket, "in/a//b.json"), // an empty segment S3 allows and no store can read
		s3EventFor(bucket, "in/./c.json"),
		[]byte("not json"),
		[]byte(`{"hello": "world"}`),
		[]byte(`{"Records":[{"eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"` + bucket + `"},"object":{"size":3}}}]}`),
		[]byte(`{"Records":[{}]}`),
	}
}

const (
	poisonNotFiles  = 3
	poisonMalformed = 4
)

// TestNotificationsPoison: events that can name no file (a console's
// "Create folder" marker, an empty path segment) and messages that are
// no S3 event at all are acknowledged and counted, and never hold back
// the real file announced after them, across a crash and restart too.
func TestNotificationsPoison(t *testing.T) {
	r := newNotifyRig(t, "1s")
	ss := r.source(map[string]string{"discovery_backfill": "false"}, -1)
	defer ss.Close()
	var warned []string
	ss.Warnf = func(format string, args ...any) { warned = append(warned, format) }

	// A real folder marker: an empty object whose key ends in '/'.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	_, err := r.s3.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("lake"), Key: aws.String("in/sub/"),
		Body: strings.NewReader("")})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range poisonMessages("lake") {
		if err := r.nats.Publish("s3.events", msg); err != nil {
			t.Fatal(err)
		}
	}
	r.put("lake", "in/real.json")

	// The real file is planned although every message before it is poison.
	deadline := time.Now().Add(20 * time.Second)
	o, keys := latestKeys(t, ss)
	for ; o == nil || len(keys) == 0; o, keys = latestKeys(t, ss) {
		if time.Now().After(deadline) {
			st, _ := ss.NotifyStats()
			t.Fatalf("in/real.json never planned; stats %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if strings.Join(keys, ",") != "in/real.json" {
		t.Fatalf("planned %v, want in/real.json", keys)
	}
	st, _ := ss.NotifyStats()
	// Versity may announce the marker it stored too.
	if st.NotFiles < poisonNotFiles || st.Malformed != poisonMalformed {
		t.Errorf("stats %+v: want not_files >= %d, malformed %d", st, poisonNotFiles, poisonMalformed)
	}
	desc := map[string]string{}
	for _, kv := range ss.StreamDescription() {
		desc[kv[0]] = kv[1]
	}
	if desc["queue_not_files"] == "" || desc["queue_not_files"] == "0" || desc["queue_malformed"] != strconv.Itoa(poisonMalformed) {
		t.Errorf("DESCRIBE rows %v", desc)
	}
	qs, _ := ss.QueueStatus()
	kinds := map[string]int64{}
	for _, c := range qs.Counts {
		kinds[c.Kind] = c.N
	}
	if kinds["not_files"] != st.NotFiles || kinds["malformed"] != poisonMalformed {
		t.Errorf("QueueStatus %+v", qs)
	}
	// One warning per malformed message (no dead_letter_location), naming
	// the queue and the message.
	nw := 0
	for _, w := range warned {
		if strings.Contains(w, "queue %s: message %s") {
			nw++
		}
	}
	if nw != poisonMalformed {
		t.Errorf("%d malformed-message warnings, want %d: %q", nw, poisonMalformed, warned)
	}

	// A crash after planning: the restarted source replays the epoch, the
	// real file's message comes back and is skipped as seen; the poison
	// was acknowledged when received and never comes back.
	ss.Close()
	ss2 := r.source(map[string]string{"discovery_backfill": "false"}, -1)
	defer ss2.Close()
	if err := ss2.Commit(context.Background(), 0, o); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(15 * time.Second)
	for {
		if o, keys := latestKeys(t, ss2); o != nil {
			t.Fatalf("after the restart read again: %v", keys)
		}
		st2, _ := ss2.NotifyStats()
		pending, ackPending, err := r.nats.Consumer("s3events", "sluice")
		if err != nil {
			t.Fatal(err)
		}
		if st2.Duplicate >= 1 && pending == 0 && ackPending == 0 && st2.Held == 0 {
			if st2.NotFiles != 0 || st2.Malformed != 0 {
				t.Errorf("poison came back after the restart: %+v", st2)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v, consumer pending %d, ack pending %d", st2, pending, ackPending)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestKeyNamesFile(t *testing.T) {
	for key, want := range map[string]bool{
		"in/a.json": true, "a.json": true, "in/a b.json": true, "in/.hidden": true, "in/..x": true,
		"": false, "in/": false, "in/sub/": false, "in/a//b.json": false, "/in/a.json": false,
		"in/./a.json": false, "in/../a.json": false, "in/a/.": false, "in/a\x00b.json": false,
	} {
		if got := keyNamesFile(key); got != want {
			t.Errorf("keyNamesFile(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestStatEventVerdicts: each kind of key gets its verdict, never an
// error (S3Store and LocalStore refuse a HEAD for the keys that name no
// file; TestNotificationsPoison has the real gateway).
func TestStatEventVerdicts(t *testing.T) {
	name := strings.NewReplacer("/", "_").Replace(t.Name())
	storage.DropMemStore(name)
	st := storage.NamedMemStore(name)
	for k, v := range map[string]string{"in/a.json": rowsJSON(1), "in/x.csv": "id\n1\n", "in/_tmp.json": rowsJSON(2), "elsewhere/a.json": rowsJSON(3)} {
		if err := st.Put(context.Background(), k, strings.NewReader(v), false); err != nil {
			t.Fatal(err)
		}
	}
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "land", Using: "json", Location: "mem://" + name + "/in/",
		Options: map[string]string{"path_glob_filter": "*.json"}, Schema: schema(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true})})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := NewStreamSource(src)
	if err != nil {
		t.Fatal(err)
	}
	base := ss.loc.base
	for _, c := range []struct {
		keys []string
		want eventVerdict
	}{
		{[]string{base + "a.json"}, eventFile},
		{[]string{base + "sub/"}, eventNotFile},
		{[]string{base + "a//b.json"}, eventNotFile},
		{[]string{base + "./a.json"}, eventNotFile},
		{[]string{base + "../a.json"}, eventNotFile},
		{[]string{base + "x.csv"}, eventFiltered},
		{[]string{base + "_tmp.json"}, eventFiltered},
		{[]string{base + "gone.json"}, eventGone},
		{[]string{"elsewhere/a.json"}, eventFiltered},
		{[]string{"elsewhere/sub/"}, eventFiltered},
		// AWS's decoded spelling first, then the raw one.
		{[]string{base + "sub/", base + "sub%2F"}, eventFiltered},
		{[]string{base + "a//b.json", base + "a.json"}, eventFile},
	} {
		f, got, err := ss.statEvent(context.Background(), objectEvent{Bucket: "", Keys: c.keys})
		if err != nil {
			t.Errorf("%v: %v", c.keys, err)
			continue
		}
		if got != c.want || (got == eventFile) != (f.Key != "") {
			t.Errorf("%v: verdict %d (file %q), want %d", c.keys, got, f.Key, c.want)
		}
	}
}
