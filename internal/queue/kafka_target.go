package queue

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// KafkaTarget is what a kafka:// queue URL names, for the clients a
// keyed stream opens beside the file queue's (stream/partition): the
// brokers, the file topic and its consumer group, the session timeout,
// and the connection options (seed brokers, TLS, SASL) every client of
// the stream shares.
type KafkaTarget struct {
	Brokers []string
	Topic   string
	Group   string
	Session time.Duration
	Opts    []kgo.Opt
}

// ParseKafka reads a kafka:// URL as OpenKafka does (refs to ${env:VAR}
// already expanded).
func ParseKafka(raw string) (*KafkaTarget, error) {
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "kafka") {
		return nil, fmt.Errorf("%w: %s: want kafka://host:9092/<topic>/<group>", ErrBadURL, Redact(raw))
	}
	return kafkaTarget(u)
}

// kafkaTarget reads a kafka:// URL: the brokers, topic and group
// (parseKafka), TLS and SASL (kafkaSecurity) and the session timeout.
func kafkaTarget(u *url.URL) (*KafkaTarget, error) {
	brokers, topic, group, err := parseKafka(u)
	if err != nil {
		return nil, err
	}
	security, err := kafkaSecurity(u)
	if err != nil {
		return nil, err
	}
	// A member that died without leaving (its broker was down when it
	// closed) holds the group's next rebalance up until its session times
	// out: Kafka's 45 s default made a worker restarted after a broker
	// outage wait that long.
	session, err := durationParam(u, "session_timeout", 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &KafkaTarget{Brokers: brokers, Topic: topic, Group: group, Session: session,
		Opts: append(security, kgo.SeedBrokers(brokers...))}, nil
}

// String names the brokers, for errors.
func (t *KafkaTarget) String() string { return "kafka " + strings.Join(t.Brokers, ",") }

// KafkaSeq packs a Kafka message's partition and offset into one queue
// sequence (never 0), as a keyed stream's watermark records carry it;
// SplitKafkaSeq undoes it. Offsets stay below 2^40, partitions below
// 2^23.
func KafkaSeq(partition int32, offset int64) uint64 {
	return uint64(partition+1)<<40 | uint64(offset)&(1<<40-1)
}

// SplitKafkaSeq is KafkaSeq's partition and offset (ok false for 0, a
// file of the first listing).
func SplitKafkaSeq(seq uint64) (partition int32, offset int64, ok bool) {
	if seq>>40 == 0 {
		return 0, 0, false
	}
	return int32(seq>>40) - 1, int64(seq & (1<<40 - 1)), true
}

// KafkaMessageSeq is KafkaSeq of a message a Kafka queue delivered (ok
// false for any other queue's).
func KafkaMessageSeq(m Message) (uint64, bool) {
	km, ok := m.(kafkaMsg)
	if !ok {
		return 0, false
	}
	return KafkaSeq(km.partition, km.offset), true
}
