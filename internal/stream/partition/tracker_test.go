package partition

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/exec"
)

// TestTrackerAckFloor: the watermark is the largest event time of the
// files whose queue messages are all acknowledged up to theirs, minus
// the delay: a file acknowledged out of order waits for the ones before
// it; a backfilled file (sequence 0) counts at once; it never moves back.
func TestTrackerAckFloor(t *testing.T) {
	ctx := context.Background()
	js := testJS(t)
	files, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "files", Subjects: []string{"files"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := js.Publish(ctx, "files", []byte("event")); err != nil {
			t.Fatal(err)
		}
	}
	cons, err := files.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: "q", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(3, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var msgs []jetstream.Msg
	for m := range batch.Messages() {
		msgs = append(msgs, m)
	}
	if len(msgs) != 3 {
		t.Fatalf("fetched %d", len(msgs))
	}
	wst, err := EnsureWatermarkStream(ctx, js, "agg", 0)
	if err != nil {
		t.Fatal(err)
	}
	slot := 0
	record := func(qseq uint64, maxEvent int64) {
		t.Helper()
		data, _ := json.Marshal(wmMsg{QueueSeq: qseq, MaxEvent: maxEvent})
		slot++ // one slot each: the stream keeps every record
		if _, err := js.Publish(ctx, WatermarkSubject("agg", slot), data); err != nil {
			t.Fatal(err)
		}
	}
	tr := NewTracker(cons, wst, WatermarkFilter("agg"), 10)
	check := func(want int64) {
		t.Helper()
		got, err := tr.Watermark(ctx)
		if err != nil || got != want {
			t.Fatalf("watermark %d (%v), want %d", got, err, want)
		}
	}
	check(math.MinInt64)
	record(1, 100)
	record(3, 300)
	check(math.MinInt64) // nothing acknowledged
	ack := func(m jetstream.Msg) {
		t.Helper()
		if err := m.DoubleAck(ctx); err != nil {
			t.Fatal(err)
		}
	}
	ack(msgs[0])
	ack(msgs[2])
	check(90) // file 2 still out: file 3 waits
	record(0, 150)
	check(140) // a backfilled file counts at once
	record(2, 200)
	ack(msgs[1])
	check(290)
	record(0, 50)
	check(290) // never back
}

// slotSeqs is a reader source in a worker slot holding queue message
// seq for file id seq.
type slotSeqs struct{ slot int }

func (s slotSeqs) HeldSeqsFor(epoch int64) []uint64 { return []uint64{uint64(epoch)} }
func (s slotSeqs) WorkerSlot() int                  { return s.slot }

// TestWatermarkRecordsBounded: readers in two slots publish a watermark
// record per file; the records' stream keeps only each slot's newest,
// however many files, and a tracker starting late still reaches the
// watermark of the newest acknowledged files.
func TestWatermarkRecordsBounded(t *testing.T) {
	ctx := context.Background()
	js := testJS(t)
	files, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "files", Subjects: []string{"files"}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	for i := 0; i < n; i++ {
		if _, err := js.Publish(ctx, "files", []byte("event")); err != nil {
			t.Fatal(err)
		}
	}
	cons, err := files.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: "q", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	wst, err := EnsureWatermarkStream(ctx, js, "bnd", 0)
	if err != nil {
		t.Fatal(err)
	}
	et, err := exec.NewEventTime(rowSchema, 0)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := tumbleCount(t)
	pubs := []*Publisher{
		{JS: js, Stream: "bnd", Part: tmpl.Partitioner(2), EventTime: et, Seqs: slotSeqs{0}},
		{JS: js, Stream: "bnd", Part: tmpl.Partitioner(2), EventTime: et, Seqs: slotSeqs{1}},
	}
	for seq := int64(1); seq <= n; seq++ {
		pub := pubs[seq%2]
		if err := pub.BeginEpoch(ctx, seq); err != nil {
			t.Fatal(err)
		}
		et.StartEpoch(math.MinInt64, math.MinInt64)
		b := rows([2]int64{seq, 200})
		if err := et.Process(ctx, b, exec.OutputFunc(func(context.Context, exec.Message) error { return nil })); err != nil {
			t.Fatal(err)
		}
		if err := pub.Flush(ctx, seq); err != nil {
			t.Fatal(err)
		}
	}
	info, err := wst.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 2 {
		t.Fatalf("the records' stream holds %d messages after %d files in 2 slots, want 2", info.State.Msgs, n)
	}
	batch, err := cons.Fetch(n, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range batch.Messages() {
		if err := m.DoubleAck(ctx); err != nil {
			t.Fatal(err)
		}
	}
	tr := NewTracker(cons, wst, WatermarkFilter("bnd"), 0)
	wm, err := tr.Watermark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if wm != n*minute {
		t.Fatalf("a tracker started after %d files reads watermark %d, want the newest file's %d", n, wm, n*minute)
	}
}
