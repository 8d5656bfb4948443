package partition

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"sluice/internal/queue"
)

// kafkaTracker is Tracker over Kafka. Kafka acknowledges by committing
// an offset per partition of the file topic, so a record (tagged with
// its message's partition and offset, queue.KafkaSeq) is done once its
// offset is below its partition's committed offset; and Kafka orders
// messages within a partition only. So the watermark is, minus the
// delay, the largest event time of the done files, but no more than the
// largest of any partition that still has messages not committed: files
// are taken to land in event-time order within a partition, and a file
// not yet acknowledged (unread, or held by a dead reader) holds back its
// partition's windows instead of arriving late. The committed offsets
// are read before the records, as Tracker reads the ack floor first: a
// reader stores a file's record before its message is acknowledged, so
// every done file's record is read by then. Floor is 0: over Kafka
// owners keep a file's id until its windows close (there is no one
// sequence to forget by).
type kafkaTracker struct {
	opts  []kgo.Opt
	adm   *kadm.Client
	files string // the file topic
	group string // the readers' consumer group on it
	marks string // MarksTopic
	delay int64  // µs

	mu      sync.Mutex
	cl      *kgo.Client // reads marks from next on
	next    int64
	pending map[uint64]int64 // KafkaSeq -> max event, not yet done
	done    int64            // max event of every done file
	doneBy  map[int32]int64  // the same per file topic partition
	wm      int64
}

var _ watermarker = (*kafkaTracker)(nil)

func newKafkaTracker(opts []kgo.Opt, adm *kadm.Client, files, group, marks string, delay int64) *kafkaTracker {
	return &kafkaTracker{opts: opts, adm: adm, files: files, group: group, marks: marks, delay: delay,
		pending: map[uint64]int64{}, doneBy: map[int32]int64{}, done: math.MinInt64, wm: math.MinInt64}
}

func (t *kafkaTracker) Floor() uint64 { return 0 }

func (t *kafkaTracker) Watermark(ctx context.Context) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	committed, err := t.adm.FetchOffsets(ctx, t.group)
	if err != nil {
		return t.wm, fmt.Errorf("file queue group %s offsets: %w", t.group, err)
	}
	fileEnds, err := t.adm.ListEndOffsets(ctx, t.files)
	if err != nil {
		return t.wm, fmt.Errorf("file queue topic %s: %w", t.files, err)
	}
	ends, err := t.adm.ListEndOffsets(ctx, t.marks)
	if err != nil {
		return t.wm, fmt.Errorf("watermark records: %w", err)
	}
	if end, ok := ends.Lookup(t.marks, 0); ok && end.Err == nil && end.Offset > t.next {
		if err := t.readTo(ctx, end.Offset); err != nil {
			return t.wm, err
		}
	}
	for seq, m := range t.pending {
		part, off, ok := queue.SplitKafkaSeq(seq)
		if ok {
			c, found := committed.Lookup(t.files, part)
			if !found || c.Err != nil || off >= c.At {
				continue
			}
			if d, seen := t.doneBy[part]; !seen || m > d {
				t.doneBy[part] = m
			}
		}
		t.done = max(t.done, m)
		delete(t.pending, seq)
	}
	bound := t.done
	fileEnds.Each(func(end kadm.ListedOffset) {
		var at int64
		if c, found := committed.Lookup(t.files, end.Partition); found && c.Err == nil {
			at = c.At
		}
		if end.Err != nil || at >= end.Offset {
			return // nothing left to read there
		}
		d, seen := t.doneBy[end.Partition]
		if !seen {
			d = math.MinInt64
		}
		bound = min(bound, d)
	})
	if bound != math.MinInt64 && bound-t.delay > t.wm {
		t.wm = bound - t.delay
	}
	return t.wm, nil
}

// readTo folds the watermark records before offset end.
func (t *kafkaTracker) readTo(ctx context.Context, end int64) error {
	if t.cl == nil {
		cl, err := kgo.NewClient(append(append([]kgo.Opt(nil), t.opts...),
			kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{t.marks: {0: kgo.NewOffset().At(t.next)}}),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.FetchMaxWait(200*time.Millisecond))...)
		if err != nil {
			return fmt.Errorf("watermark records: %w", err)
		}
		t.cl = cl
	}
	deadline := time.Now().Add(2 * time.Second)
	for t.next < end {
		if time.Now().After(deadline) {
			t.close()
			return fmt.Errorf("watermark records: nothing delivered up to offset %d", end)
		}
		pctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		fetches := t.cl.PollRecords(pctx, 500)
		cancel()
		fetches.EachRecord(func(r *kgo.Record) {
			if r.Offset < t.next {
				return
			}
			t.next = r.Offset + 1
			var w wmMsg
			if json.Unmarshal(r.Value, &w) == nil && w.MaxEvent != math.MinInt64 {
				if old, ok := t.pending[w.QueueSeq]; !ok || w.MaxEvent > old {
					t.pending[w.QueueSeq] = w.MaxEvent
				}
			}
		})
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (t *kafkaTracker) close() {
	if t.cl != nil {
		t.cl.Close()
		t.cl = nil
	}
}
