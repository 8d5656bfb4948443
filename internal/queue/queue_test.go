package queue

import (
	"context"
	"errors"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestOpenBadURLs(t *testing.T) {
	for _, raw := range []string{
		"redis://h/a/b", "nats://h:4222/only-stream", "nats://h/a/b?ack_wait=soon",
		"sqs://h/q", "kafka:///topic/group", "kafka://h/topic", "sqs://h/1/q?scheme=ftp",
	} {
		_, err := Open(context.Background(), raw)
		if !errors.Is(err, ErrBadURL) {
			t.Errorf("Open(%s): %v, want ErrBadURL", raw, err)
		}
	}
	_, err := Open(context.Background(), "kafka://u:s3cr3t@h/topic")
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("error leaks the password: %v", err)
	}
}

func TestParseSQS(t *testing.T) {
	u, _ := url.Parse("sqs://AK:SK@sqs.eu-west-1.amazonaws.com/123456789012/events?visibility=45s")
	tg, err := parseSQS(u)
	if err != nil {
		t.Fatal(err)
	}
	if tg.queueURL != "https://sqs.eu-west-1.amazonaws.com/123456789012/events" || tg.region != "eu-west-1" ||
		tg.key != "AK" || tg.secret != "SK" || tg.visibility != 45*time.Second {
		t.Errorf("%+v", tg)
	}
	u, _ = url.Parse("sqs://127.0.0.1:9324/000000000000/q?scheme=http")
	if tg, _ = parseSQS(u); tg.endpoint != "http://127.0.0.1:9324" || tg.region != "us-east-1" {
		t.Errorf("%+v", tg)
	}
	if r := Redact("sqs://AK:SK@h/1/q"); strings.Contains(r, "SK") {
		t.Errorf("Redact: %s", r)
	}
}

func TestParseKafka(t *testing.T) {
	u, _ := url.Parse("kafka://b1:9092,b2:9092/s3-events/sluice")
	brokers, topic, group, err := parseKafka(u)
	if err != nil || strings.Join(brokers, ",") != "b1:9092,b2:9092" || topic != "s3-events" || group != "sluice" {
		t.Errorf("%v %s %s %v", brokers, topic, group, err)
	}
}

// TestPartitionAcks: Kafka's committed offset passes only a contiguous
// run of acknowledged messages, in whatever order they were acked.
func TestPartitionAcks(t *testing.T) {
	p := &partitionAcks{acked: map[int64]bool{}}
	for _, o := range []int64{5, 6, 7, 8} {
		p.deliver(o)
	}
	p.deliver(6) // redelivered: no duplicate entry
	if got := p.ack(7); got != -1 {
		t.Fatalf("ack 7 first: commit %d, want none (5 and 6 are open)", got)
	}
	if got := p.ack(5); got != 6 {
		t.Fatalf("ack 5: commit %d, want 6", got)
	}
	if got := p.ack(6); got != 8 {
		t.Fatalf("ack 6: commit %d, want 8 (7 was acked already)", got)
	}
	if got := p.ack(8); got != 9 || len(p.delivered) != 0 || len(p.acked) != 0 {
		t.Fatalf("ack 8: commit %d, left %v %v", got, p.delivered, p.acked)
	}
}

// contract checks the Queue contract against a real broker: of three
// messages, the acked one never comes back, the nak'd and the one left
// unacknowledged come back to the next receiver (after the deadline).
func contract(t *testing.T, open func() Queue, publish func(data string)) {
	t.Helper()
	ctx := context.Background()
	q := open()
	for _, m := range []string{"one", "two", "three"} {
		publish(m)
	}
	got := map[string]Message{}
	deadline := time.Now().Add(30 * time.Second)
	for len(got) < 3 {
		msgs, err := q.Receive(ctx, 10, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			got[string(m.Data())] = m
			if m.ID() == "" {
				t.Errorf("message %q has no ID", m.Data())
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("received %d of 3", len(got))
		}
	}
	if err := q.Ack(ctx, []Message{got["one"]}); err != nil {
		t.Fatal(err)
	}
	if err := q.Nak(ctx, []Message{got["two"]}); err != nil {
		t.Fatal(err)
	}
	if bl, ok := q.(Backlogger); ok {
		if _, err := bl.Backlog(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q2 := open()
	defer q2.Close()
	again := map[string]bool{}
	deadline = time.Now().Add(40 * time.Second)
	for len(again) < 2 && time.Now().Before(deadline) {
		msgs, err := q2.Receive(ctx, 10, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			again[string(m.Data())] = true
		}
	}
	var keys []string
	for k := range again {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != "three,two" {
		t.Fatalf("redelivered %v, want three and two (not the acked one)", keys)
	}
}
