package stream

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/connector/memtable"
	"sluice/internal/exec"
	"sluice/internal/storage"
)

// slowListing lists after a pause, slowWriting writes after one: each
// phase must be charged to the phase that spent it.
type slowListing struct{ *batchSource }

func (s slowListing) Latest(ctx context.Context) (connector.Offset, error) {
	time.Sleep(15 * time.Millisecond)
	return s.batchSource.Latest(ctx)
}

type slowWriting struct{ *epochSink }

func (s slowWriting) Write(ctx context.Context, b arrow.RecordBatch) error {
	time.Sleep(20 * time.Millisecond)
	return s.epochSink.Write(ctx, b)
}

// TestEpochPhases: each commit keeps its epoch's time by phase, the
// listing and the sink get the pauses their steps took, and the phases
// of the progress add up to no more than the epoch's duration.
func TestEpochPhases(t *testing.T) {
	ctx := context.Background()
	store := storage.NewMemStore("")
	tbl := memtable.New(schema, nil)
	for i := int64(0); i < 4; i++ {
		tbl.Append(batchOf(i*10, i*10+1))
	}
	src := slowListing{&batchSource{Table: tbl, maxBatch: 2}}
	scan := &exec.Scan{Source: src, Parallelism: 1}
	var got []Progress
	q := &Query{Name: "t", Checkpoint: &Checkpoint{Store: store, Prefix: "cp/"}, Trigger: Trigger{AvailableNow: true},
		Clock: SystemClock{}, Source: src, Scan: scan, Root: &exec.Stage{Scan: scan},
		Sink: slowWriting{&epochSink{failAfterWrite: -1}}, Owner: "test", OnProgress: func(p Progress) { got = append(got, p) }}
	if err := q.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d epochs, want 2", len(got))
	}
	for _, p := range got {
		ph := p.Phases
		if ph.Listing < 15*time.Millisecond || ph.Sink < 40*time.Millisecond || ph.Checkpoint <= 0 {
			t.Errorf("epoch %d phases %+v: want listing ≥ 15ms, sink ≥ 40ms (two batches), a checkpoint", p.Epoch, ph)
		}
		if sum := ph.Listing + ph.Reading + ph.Operators + ph.Sink + ph.Checkpoint; sum > p.Duration {
			t.Errorf("epoch %d: phases add up to %s, more than its %s", p.Epoch, sum, p.Duration)
		}
		c, err := q.Checkpoint.ReadCommit(ctx, p.Epoch)
		if err != nil {
			t.Fatal(err)
		}
		if c.Phases == nil || c.Phases.SinkUS < 40000 || c.Phases.ListingUS < 15000 || c.Duration < c.Phases.SinkUS {
			t.Errorf("commits/%d keeps phases %+v, duration %dµs", p.Epoch, c.Phases, c.Duration)
		}
	}
}
