package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// Backlog is, over the topic's partitions, the end offset minus the
// group's committed offset (the start offset where it committed none):
// every record the group has not acknowledged. The ones this member
// holds (delivered, not acknowledged) are Unacked, the rest Pending;
// another member's held records count as Pending, as Kafka cannot tell
// them apart. Errors the broker calls retriable (a group coordinator
// still being elected on a fresh cluster) are retried for up to 10 s.
func (k *Kafka) Backlog(ctx context.Context) (Backlog, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := k.backlog(ctx)
		if err == nil || !kerr.IsRetriable(err) || time.Now().After(deadline) {
			return b, err
		}
		select {
		case <-ctx.Done():
			return b, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (k *Kafka) backlog(ctx context.Context) (Backlog, error) {
	adm := kadm.NewClient(k.cl) // shares the client: never closed here
	ends, err := adm.ListEndOffsets(ctx, k.topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return Backlog{}, fmt.Errorf("kafka topic %s: end offsets: %w", k.topic, err)
	}
	starts, err := adm.ListStartOffsets(ctx, k.topic)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return Backlog{}, fmt.Errorf("kafka topic %s: start offsets: %w", k.topic, err)
	}
	committed, err := adm.FetchOffsets(ctx, k.group)
	if err == nil {
		err = committed.Error()
	}
	if err != nil {
		return Backlog{}, fmt.Errorf("kafka group %s: committed offsets: %w", k.group, err)
	}
	var lag int64
	ends.Each(func(o kadm.ListedOffset) {
		from := int64(0)
		if s, ok := starts.Lookup(o.Topic, o.Partition); ok {
			from = s.Offset
		}
		if c, ok := committed.Lookup(o.Topic, o.Partition); ok && c.At >= 0 && c.At > from {
			from = c.At
		}
		if o.Offset > from {
			lag += o.Offset - from
		}
	})
	k.mu.Lock()
	var held int64
	for _, p := range k.parts {
		held += int64(len(p.delivered))
	}
	k.mu.Unlock()
	held = min(held, lag)
	return Backlog{Pending: lag - held, Unacked: held}, nil
}
