package partition

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
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
	pst, err := EnsureStream(ctx, js, "agg")
	if err != nil {
		t.Fatal(err)
	}
	record := func(qseq uint64, maxEvent int64) {
		t.Helper()
		data, _ := json.Marshal(wmMsg{QueueSeq: qseq, MaxEvent: maxEvent})
		if _, err := js.Publish(ctx, WatermarkSubject("agg"), data); err != nil {
			t.Fatal(err)
		}
	}
	tr := NewTracker(cons, pst, WatermarkSubject("agg"), 10)
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
