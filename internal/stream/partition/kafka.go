package partition

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"sluice/internal/queue"
)

// A keyed stream over Kafka keeps its partials in a topic of its own,
// PartialsTopic, with one Kafka partition per aggregation partition
// (partition p's partials in partition p, keyed by p), and its readers'
// watermark records in MarksTopic (one partition, compacted: the newest
// record of each reader slot is kept). Both are created when missing;
// existing ones are only checked.

// PartialsTopic is the Kafka topic of a keyed stream's partials.
func PartialsTopic(stream string) string { return "sluice-" + stream + "-partials" }

// MarksTopic is the Kafka topic of a keyed stream's watermark records.
func MarksTopic(stream string) string { return "sluice-" + stream + "-wm" }

// ensureTopic creates topic with parts partitions and configs when it
// is missing (replication: the broker's default). An existing topic is
// only checked: fewer partitions than parts cannot work and are refused,
// more are warned about (the extra ones stay unused). A topic just
// created (by another worker) may not be listed yet: its creation is
// refused as existing, and it is listed again until it shows.
func ensureTopic(ctx context.Context, adm *kadm.Client, topic string, parts int, configs map[string]*string, logf func(string, ...any)) error {
	for tries := 0; ; tries++ {
		details, err := adm.ListTopics(ctx, topic)
		if err != nil {
			return fmt.Errorf("reading topic %s: %w", topic, err)
		}
		d, ok := details[topic]
		if ok && d.Err == nil {
			switch have := len(d.Partitions); {
			case have < parts:
				return fmt.Errorf("topic %s has %d partitions, the stream needs %d (delete it or use another stream name)", topic, have, parts)
			case have > parts:
				logf("keyed stream: topic %s has %d partitions, the stream uses %d of them", topic, have, parts)
			}
			return nil
		}
		if ok && !errors.Is(d.Err, kerr.UnknownTopicOrPartition) && !errors.Is(d.Err, kerr.LeaderNotAvailable) {
			return fmt.Errorf("reading topic %s: %w", topic, d.Err)
		}
		resp, err := adm.CreateTopic(ctx, int32(parts), -1, configs, topic)
		if err == nil {
			err = resp.Err
		}
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, kerr.TopicAlreadyExists):
			return fmt.Errorf("creating topic %s: %w", topic, err)
		case tries == 40:
			return fmt.Errorf("topic %s exists but is not listed after 10 s", topic)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// kafkaLog reads the partials topic: positions are offsets plus one.
type kafkaLog struct {
	opts  []kgo.Opt // the connection's
	adm   *kadm.Client
	topic string
	group *kafkaGroup // told each reader's position, which it commits
}

var _ partialLog = (*kafkaLog)(nil)

func (l *kafkaLog) Last(ctx context.Context, p int) (uint64, error) {
	ends, err := l.adm.ListEndOffsets(ctx, l.topic)
	if err != nil {
		return 0, fmt.Errorf("topic %s: %w", l.topic, err)
	}
	end, ok := ends.Lookup(l.topic, int32(p))
	if !ok {
		return 0, fmt.Errorf("topic %s has no partition %d", l.topic, p)
	}
	if end.Err != nil {
		return 0, fmt.Errorf("topic %s partition %d: %w", l.topic, p, end.Err)
	}
	return uint64(max(end.Offset, 0)), nil
}

func (l *kafkaLog) Reader(p int, from uint64) partialReader {
	return &kafkaReader{log: l, p: int32(p), next: int64(from) - 1}
}

func (l *kafkaLog) Trim(ctx context.Context, p int, before uint64) {
	os := kadm.Offsets{}
	os.Add(kadm.Offset{Topic: l.topic, Partition: int32(p), At: int64(before) - 1, LeaderEpoch: -1})
	_, _ = l.adm.DeleteRecords(ctx, os)
}

// kafkaReader reads one partition of the partials topic from an offset,
// through a client of its own outside any group.
type kafkaReader struct {
	log  *kafkaLog
	p    int32
	next int64 // offset to read next
	cl   *kgo.Client
}

func (r *kafkaReader) fetchWait(ctx context.Context, max int, wait time.Duration) ([]partialRec, error) {
	if r.cl == nil {
		cl, err := kgo.NewClient(append(append([]kgo.Opt(nil), r.log.opts...),
			kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{r.log.topic: {r.p: kgo.NewOffset().At(r.next)}}),
			kgo.FetchMaxWait(min(wait, 500*time.Millisecond)))...)
		if err != nil {
			return nil, fmt.Errorf("reading topic %s partition %d: %w", r.log.topic, r.p, err)
		}
		r.cl = cl
	}
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	fetches := r.cl.PollRecords(pctx, max)
	var out []partialRec
	fetches.EachRecord(func(rec *kgo.Record) {
		if rec.Partition != r.p || rec.Offset < r.next {
			return
		}
		out = append(out, partialRec{Seq: uint64(rec.Offset) + 1, Data: rec.Value})
		r.next = rec.Offset + 1
	})
	if r.log.group != nil {
		r.log.group.setPos(int(r.p), r.next)
	}
	for _, fe := range fetches.Errors() {
		if errors.Is(fe.Err, context.DeadlineExceeded) || errors.Is(fe.Err, context.Canceled) {
			continue
		}
		r.close(ctx)
		return out, fmt.Errorf("reading topic %s partition %d: %w", r.log.topic, r.p, fe.Err)
	}
	return out, ctx.Err()
}

func (r *kafkaReader) close(context.Context) {
	if r.cl != nil {
		r.cl.Close()
		r.cl = nil
	}
}

// kafkaSink produces the readers' messages, each acknowledged by every
// in-sync replica before Flush returns. Kafka has no duplicate window:
// a copy (a file read twice) is dropped by the owner, which folds a file
// into a window once.
type kafkaSink struct {
	cl       *kgo.Client // with the manual partitioner
	partials string
	marks    string
}

var _ partialSink = (*kafkaSink)(nil)

func (k *kafkaSink) Partial(ctx context.Context, part int, id string, data []byte) error {
	return k.produce(ctx, &kgo.Record{Topic: k.partials, Partition: int32(part), Key: []byte(strconv.Itoa(part)), Value: data,
		Headers: []kgo.RecordHeader{{Key: "sluice-id", Value: []byte(id)}}})
}

func (k *kafkaSink) Mark(ctx context.Context, slot int, id string, data []byte) error {
	return k.produce(ctx, &kgo.Record{Topic: k.marks, Partition: 0, Key: []byte("slot-" + strconv.Itoa(slot)), Value: data,
		Headers: []kgo.RecordHeader{{Key: "sluice-id", Value: []byte(id)}}})
}

func (k *kafkaSink) produce(ctx context.Context, r *kgo.Record) error {
	if err := k.cl.ProduceSync(ctx, r).FirstErr(); err != nil {
		return fmt.Errorf("publishing partials to %s: %w", r.Topic, queueError(err))
	}
	return nil
}

// queueError marks a broker that cannot be reached as the queue's
// outage (retried) rather than the stream's failure.
func queueError(err error) error {
	var ke *kerr.Error
	var ne net.Error
	if errors.As(err, &ke) && ke.Retriable || errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", queue.ErrUnreachable, err)
	}
	return err
}
