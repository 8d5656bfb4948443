package queue

import (
	"errors"
	"testing"
	"time"
)

// TestKafkaSeq: a message's partition and offset survive the packing
// into one sequence, which is never 0 (a listed file's).
func TestKafkaSeq(t *testing.T) {
	for _, c := range []struct {
		part int32
		off  int64
	}{{0, 0}, {0, 1}, {1, 0}, {7, 123456789}, {1<<23 - 2, 1<<40 - 1}} {
		seq := KafkaSeq(c.part, c.off)
		if seq == 0 {
			t.Errorf("%+v: sequence 0", c)
		}
		p, o, ok := SplitKafkaSeq(seq)
		if !ok || p != c.part || o != c.off {
			t.Errorf("%+v: split %d, %d, %v", c, p, o, ok)
		}
	}
	if _, _, ok := SplitKafkaSeq(0); ok {
		t.Error("sequence 0 split as a message")
	}
	if seq, ok := KafkaMessageSeq(kafkaMsg{partition: 2, offset: 9}); !ok || seq != KafkaSeq(2, 9) {
		t.Errorf("KafkaMessageSeq: %d, %v", seq, ok)
	}
}

// TestParseKafkaTarget: the target names what the URL does; a URL of another
// scheme is refused.
func TestParseKafkaTarget(t *testing.T) {
	tg, err := ParseKafka("kafka://h1:9092,h2:9092/events/feed?session_timeout=6s")
	if err != nil {
		t.Fatal(err)
	}
	if len(tg.Brokers) != 2 || tg.Topic != "events" || tg.Group != "feed" || tg.Session != 6*time.Second || len(tg.Opts) == 0 {
		t.Errorf("target %+v", tg)
	}
	if _, err := ParseKafka("nats://h:4222/s/c"); !errors.Is(err, ErrBadURL) {
		t.Errorf("nats URL: %v", err)
	}
}
