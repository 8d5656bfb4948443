package queue

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Kafka is a consumer group on one topic. Kafka acknowledges by
// committing an offset per partition, not per message: the group's
// offset moves past a message only once it and every earlier message of
// its partition were acknowledged, so a crash redelivers everything from
// the first unacknowledged message on (at-least-once, as the contract
// allows). Nak cannot hand one message back: it leaves it uncommitted,
// and it comes back after a restart or a rebalance. Several workers in
// one group split the topic's partitions.
type Kafka struct {
	cl     *kgo.Client
	topic  string
	group  string
	health *kafkaHealth

	mu    sync.Mutex
	parts map[int32]*partitionAcks
}

var (
	_ Queue      = (*Kafka)(nil)
	_ Backlogger = (*Kafka)(nil)
	_ Checker    = (*Kafka)(nil)
)

type kafkaMsg struct {
	partition int32
	offset    int64
	epoch     int32
	value     []byte
}

func (m kafkaMsg) ID() string {
	return "partition " + strconv.Itoa(int(m.partition)) + " offset " + strconv.FormatInt(m.offset, 10)
}
func (m kafkaMsg) Data() []byte { return m.value }

// partitionAcks tracks one partition's delivered offsets until the
// committed offset can pass them.
type partitionAcks struct {
	delivered []int64 // ascending, not yet committed past
	acked     map[int64]bool
	epoch     int32
}

// deliver records an offset handed out.
func (p *partitionAcks) deliver(off int64) {
	if n := len(p.delivered); n > 0 && off <= p.delivered[n-1] {
		// A redelivery after a seek: keep the list ordered and unique.
		i := sort.Search(n, func(i int) bool { return p.delivered[i] >= off })
		if i < n && p.delivered[i] == off {
			return
		}
		p.delivered = append(p.delivered[:i], append([]int64{off}, p.delivered[i:]...)...)
		return
	}
	p.delivered = append(p.delivered, off)
}

// ack marks off done and returns the offset to commit (the first not
// yet acknowledged), or -1 when it does not move.
func (p *partitionAcks) ack(off int64) int64 {
	p.acked[off] = true
	next := int64(-1)
	for len(p.delivered) > 0 && p.acked[p.delivered[0]] {
		delete(p.acked, p.delivered[0])
		next = p.delivered[0] + 1
		p.delivered = p.delivered[1:]
	}
	return next
}

// parseKafka reads kafka://host:9092[,host2:9092]/<topic>/<group>
// [?session_timeout=10s] (TLS and SASL: kafkaSecurity).
func parseKafka(u *url.URL) (brokers []string, topic, group string, err error) {
	parts, err := pathParts(u, 2, "kafka://host:9092[,host:9092]/<topic>/<group>")
	if err != nil {
		return nil, "", "", err
	}
	for _, h := range strings.Split(u.Host, ",") {
		if h = strings.TrimSpace(h); h != "" {
			brokers = append(brokers, h)
		}
	}
	if len(brokers) == 0 {
		return nil, "", "", fmt.Errorf("%w: %s: no broker", ErrBadURL, Redact(u.String()))
	}
	return brokers, parts[0], parts[1], nil
}

// OpenKafka joins the group; a new group starts at the topic's oldest
// offset, so events sent before the stream first started are read.
func OpenKafka(ctx context.Context, u *url.URL) (*Kafka, error) {
	t, err := kafkaTarget(u)
	if err != nil {
		return nil, err
	}
	brokers, topic, group, session := t.Brokers, t.Topic, t.Group, t.Session
	k := &Kafka{topic: topic, group: group, parts: map[int32]*partitionAcks{}, health: &kafkaHealth{}}
	forget := func(_ context.Context, _ *kgo.Client, lost map[string][]int32) {
		k.mu.Lock()
		defer k.mu.Unlock()
		for _, p := range lost[topic] {
			delete(k.parts, p)
		}
	}
	cl, err := kgo.NewClient(append(t.Opts,
		kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.OnPartitionsRevoked(forget),
		kgo.OnPartitionsLost(forget),
		kgo.WithHooks(k.health),
		kgo.SessionTimeout(session),
		kgo.HeartbeatInterval(min(3*time.Second, session/3)),
	)...)
	if err != nil {
		return nil, fmt.Errorf("kafka %s: %w", strings.Join(brokers, ","), err)
	}
	// A refused login or no reachable broker shows now, not as polls
	// that stay empty while the client retries.
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := cl.Ping(pctx); err != nil {
		cl.Close()
		return nil, fmt.Errorf("kafka %s: %w: %w", strings.Join(brokers, ","), ErrUnreachable, err)
	}
	k.cl = cl
	return k, nil
}

// Receive polls up to max records, waiting at most wait.
func (k *Kafka) Receive(ctx context.Context, max int, wait time.Duration) ([]Message, error) {
	if max <= 0 {
		max = 100
	}
	if wait <= 0 {
		wait = 10 * time.Millisecond
	}
	if err := k.Check(); err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	fetches := k.cl.PollRecords(pctx, max)
	var out []Message
	k.mu.Lock()
	fetches.EachRecord(func(r *kgo.Record) {
		if r.Topic != k.topic {
			return
		}
		p := k.parts[r.Partition]
		if p == nil {
			p = &partitionAcks{acked: map[int64]bool{}}
			k.parts[r.Partition] = p
		}
		p.deliver(r.Offset)
		p.epoch = r.LeaderEpoch
		out = append(out, kafkaMsg{partition: r.Partition, offset: r.Offset, epoch: r.LeaderEpoch, value: r.Value})
	})
	k.mu.Unlock()
	for _, fe := range fetches.Errors() {
		if errors.Is(fe.Err, context.DeadlineExceeded) || errors.Is(fe.Err, context.Canceled) {
			continue
		}
		return out, fmt.Errorf("polling kafka topic %s: %w", k.topic, fe.Err)
	}
	if len(out) == 0 {
		// Nothing came: from an empty topic, or from a broker that died
		// during the poll (the client retries it quietly).
		if err := k.Check(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Ack commits, per partition, past every message acknowledged so far
// with no unacknowledged one before it.
func (k *Kafka) Ack(ctx context.Context, msgs []Message) error {
	commit := map[int32]kgo.EpochOffset{}
	k.mu.Lock()
	for _, m := range msgs {
		km, ok := m.(kafkaMsg)
		if !ok {
			k.mu.Unlock()
			return fmt.Errorf("acking %T on kafka", m)
		}
		p := k.parts[km.partition]
		if p == nil {
			continue // revoked: the new owner reads it again
		}
		if next := p.ack(km.offset); next >= 0 {
			commit[km.partition] = kgo.EpochOffset{Epoch: p.epoch, Offset: next}
		}
	}
	k.mu.Unlock()
	if len(commit) == 0 {
		return nil
	}
	if err := k.Check(); err != nil {
		return fmt.Errorf("committing kafka group %s: %w", k.group, err)
	}
	// The client retries a commit to a broker that is down until ctx
	// ends: bound it, the messages come back if it never lands.
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var cerr error
	k.cl.CommitOffsetsSync(ctx, map[string]map[int32]kgo.EpochOffset{k.topic: commit},
		func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
			if err != nil {
				cerr = err
				return
			}
			for _, t := range resp.Topics {
				for _, p := range t.Partitions {
					if p.ErrorCode != 0 && cerr == nil {
						cerr = fmt.Errorf("partition %d: error code %d", p.Partition, p.ErrorCode)
					}
				}
			}
		})
	if cerr != nil {
		if err := k.Check(); err != nil {
			cerr = err
		}
		return fmt.Errorf("committing kafka group %s on %s: %w", k.group, k.topic, cerr)
	}
	return nil
}

// Nak leaves the messages uncommitted (see the type's comment).
func (k *Kafka) Nak(context.Context, []Message) error { return nil }

// Close leaves the group; what was not committed is read again by the
// next member.
func (k *Kafka) Close() error {
	k.cl.Close()
	return nil
}
