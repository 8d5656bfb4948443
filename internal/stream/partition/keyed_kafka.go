package partition

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"sluice/internal/queue"
)

// dialKafka is Dial over a kafka:// file queue (raw, expanded): the
// stream's partials topic and watermark records topic (created when
// missing), a producer for the readers, and the owners' group member.
func dialKafka(ctx context.Context, c Config, raw string, held HeldSeqs) (*Keyed, error) {
	q := c.Query
	t, err := queue.ParseKafka(raw)
	if err != nil {
		return nil, err
	}
	logf := c.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	k := &Keyed{Worker: workerName()}
	var ok bool
	defer func() {
		if !ok {
			k.Close()
		}
	}()
	admin, err := kgo.NewClient(t.Opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	k.closers = append(k.closers, admin.Close)
	adm := kadm.NewClient(admin)
	partials, marks := PartialsTopic(q.Name), MarksTopic(q.Name)
	keep, compact := "-1", "compact"
	// A broker that is down makes the client retry until ctx ends:
	// bound the setup, so the stream is retried as a queue outage.
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := ensureTopic(sctx, adm, partials, c.Parts, map[string]*string{"retention.ms": &keep}, logf); err != nil {
		return nil, fmt.Errorf("%s: %w", t, queueError(err))
	}
	if err := ensureTopic(sctx, adm, marks, 1, map[string]*string{"cleanup.policy": &compact}, logf); err != nil {
		return nil, fmt.Errorf("%s: %w", t, queueError(err))
	}
	producer, err := kgo.NewClient(append(append([]kgo.Opt(nil), t.Opts...), kgo.ClientID(k.Worker),
		kgo.RecordPartitioner(kgo.ManualPartitioner()))...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	k.closers = append(k.closers, producer.Close)
	group := newKafkaGroup(partials, GroupName(q.Name), k.Worker)
	member, err := kgo.NewClient(append(append([]kgo.Opt(nil), t.Opts...), group.opts(t.Session)...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	member.PauseFetchTopics(partials) // positions are the checkpoints', read by kafkaLog
	group.cl, group.adm = member, adm
	k.closers = append(k.closers, member.Close)
	var delay int64
	if q.Watermark != nil {
		delay = q.Watermark.Delay
	}
	tracker := newKafkaTracker(t.Opts, adm, t.Topic, t.Group, marks, delay)
	k.closers = append(k.closers, func() {
		tracker.mu.Lock()
		tracker.close()
		tracker.mu.Unlock()
	})
	owner := newOwner(c)
	owner.plog = &kafkaLog{opts: t.Opts, adm: adm, topic: partials, group: group}
	owner.group, owner.marks = group, tracker
	part := c.Template.Partitioner(c.Parts)
	pub := &Publisher{Stream: q.Name, Part: part, EventTime: q.EventTime, Seqs: held,
		out: &kafkaSink{cl: producer, partials: partials, marks: marks}}
	k.Owner, k.Reader = owner, readerQuery(c, part, pub)
	k.Kafka = "topic " + partials + " " + strconv.Itoa(c.Parts) + " partitions, topic " + marks + ", group " + GroupName(q.Name)
	ok = true
	return k, nil
}
