package partition

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/testutil/natsserver"
	"sluice/internal/usererr"
)

// queueSource is a reader source on a queue: what Dial asks of one.
type queueSource struct {
	connector.StreamingSource
	url string
}

func (s queueSource) QueueURL() string                 { return s.url }
func (s queueSource) HeldSeqsFor(epoch int64) []uint64 { return nil }

// keyedQuery is a stream whose root stage is the window aggregate alone.
func keyedQuery(t *testing.T, name string) (*stream.Query, *exec.WindowAggregate) {
	t.Helper()
	tmpl := tumbleCount(t)
	return &stream.Query{Name: name, Root: &exec.Stage{Ops: []exec.Operator{tmpl}}, Sink: &memSink{},
		Checkpoint: &stream.Checkpoint{Store: storage.NewMemStore("cp"), Prefix: "cp/"}}, tmpl
}

// TestDialNeedsJetStream: a keyed stream over a source without a queue,
// or on a broker other than NATS or Kafka, is refused before anything is
// dialed.
func TestDialNeedsJetStream(t *testing.T) {
	q, tmpl := keyedQuery(t, "agg")
	for _, src := range []connector.StreamingSource{nil, queueSource{url: "sqs://localhost:9324/000/files"}, queueSource{}} {
		_, err := Dial(context.Background(), Config{Query: q, Source: src, Template: tmpl, Parts: 2})
		if err == nil || !strings.Contains(err.Error(), "stream agg: a windowed aggregation shared by workers needs a nats:// or kafka:// queue") {
			t.Errorf("%v: err %v", src, err)
		}
	}
	if _, err := q.Checkpoint.Store.Stat(context.Background(), "cp/keyed/meta.json"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a refused stream wrote its meta: %v", err)
	}
}

// TestDial: the file consumer, the partials and watermark streams and
// the lease bucket exist once Dial returns; the reader's plan ends in
// the partitioner and publishes; the owner waits for the backfill key.
func TestDial(t *testing.T) {
	ctx := context.Background()
	srv := natsserver.StartTB(t)
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "files", Subjects: []string{"files"}}); err != nil {
		t.Fatal(err)
	}
	q, tmpl := keyedQuery(t, "agg")
	k, err := Dial(ctx, Config{Query: q, Source: queueSource{url: srv.URL + "/files/shared"}, Template: tmpl, Parts: 4, Backfill: "cp/workers/0/notify/backfilled"})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if _, err := js.Consumer(ctx, "files", "shared"); err != nil {
		t.Errorf("file consumer: %v", err)
	}
	for _, name := range []string{"sluice-agg", "sluice-agg-wm"} {
		if _, err := js.Stream(ctx, name); err != nil {
			t.Errorf("stream %s: %v", name, err)
		}
	}
	if _, err := js.KeyValue(ctx, BucketName("agg")); err != nil {
		t.Errorf("lease bucket: %v", err)
	}
	if k.Owner.Parts != 4 || k.Owner.Leases.TTL != DefaultLeaseTTL || k.Owner.Leases.Worker != k.Worker || k.Worker == "" {
		t.Errorf("owner: parts %d, ttl %v, worker %q/%q", k.Owner.Parts, k.Owner.Leases.TTL, k.Owner.Leases.Worker, k.Worker)
	}
	ops := k.Reader.Root.Ops
	if _, ok := ops[len(ops)-1].(*exec.WindowPartitioner); !ok || len(ops) != 1 {
		t.Errorf("reader ops %T, want the partitioner alone", ops)
	}
	if _, ok := k.Reader.Sink.(*Publisher); !ok || k.Reader.Watermark != nil || q.Sink == k.Reader.Sink {
		t.Errorf("reader sink %T, watermark %v", k.Reader.Sink, k.Reader.Watermark)
	}
	if done, err := k.Owner.Backfilled(ctx); done || err != nil {
		t.Errorf("backfilled before the key: %v, %v", done, err)
	}
	if err := q.Checkpoint.Store.Put(ctx, "cp/workers/0/notify/backfilled", strings.NewReader(""), false); err != nil {
		t.Fatal(err)
	}
	if done, err := k.Owner.Backfilled(ctx); !done || err != nil {
		t.Errorf("backfilled after the key: %v, %v", done, err)
	}
	// Another partition count over the same checkpoint is the user's
	// mistake, refused before anything is dialed.
	_, err = Dial(ctx, Config{Query: q, Source: queueSource{url: srv.URL + "/files/shared"}, Template: tmpl, Parts: 8})
	if kind, ok := usererr.KindOf(err); !ok || kind != usererr.Invalid || !strings.Contains(err.Error(), "partitions = 4, not 8") {
		t.Errorf("other partition count: %v", err)
	}
}
