package stream

import (
	"context"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/connector/memtable"
	"sluice/internal/storage"
)

// statsSink is an epochSink whose every flush retries twice and
// dead-letters one row (counted since it opened, as connector.SinkStats
// says).
type statsSink struct {
	*epochSink
	retries, dead int64
}

var _ connector.SinkStats = (*statsSink)(nil)

func (s *statsSink) Flush(ctx context.Context, e int64) error {
	s.retries += 2
	s.dead++
	return s.epochSink.Flush(ctx, e)
}

func (s *statsSink) SinkStats() (int64, int64) { return s.retries, s.dead }

// TestProgressSinkStatsAndCheckpointTime: each epoch's progress carries
// its own retries and dead letters (not the sink's running totals), the
// time its checkpoint writes took, and its output rate.
func TestProgressSinkStatsAndCheckpointTime(t *testing.T) {
	tbl := memtable.New(schema, nil)
	for i := int64(0); i < 3; i++ {
		tbl.Append(batchOf(i))
	}
	inner := &epochSink{failAfterWrite: -1}
	q := newQuery(t, storage.NewMemStore(""), tbl, inner, Trigger{AvailableNow: true}, SystemClock{})
	q.Source.(*batchSource).maxBatch = 1
	q.Sink = &statsSink{epochSink: inner}
	var ps []Progress
	q.OnProgress = func(p Progress) { ps = append(ps, p) }
	if err := q.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 {
		t.Fatalf("%d epochs, want 3", len(ps))
	}
	for i, p := range ps {
		if p.SinkRetries != 2 || p.DeadLetters != 1 {
			t.Errorf("epoch %d: %d retries, %d dead letters; want 2 and 1", i, p.SinkRetries, p.DeadLetters)
		}
		if p.CheckpointWrite <= 0 || p.CheckpointWrite > p.Duration {
			t.Errorf("epoch %d: checkpoint write %s of an epoch of %s", i, p.CheckpointWrite, p.Duration)
		}
		if i > 0 && p.OutputRate <= 0 {
			t.Errorf("epoch %d: output rate %v", i, p.OutputRate)
		}
		if p.MaxEventTime != 0 {
			t.Errorf("epoch %d: newest event time %d without event time", i, p.MaxEventTime)
		}
	}
}
