package stream

import (
	"context"
	"fmt"
	"testing"
	"time"

	"sluice/internal/connector"
	"sluice/internal/connector/memtable"
	"sluice/internal/exec"
	"sluice/internal/storage"
)

// arrivalSource is a batchSource that is told of new batches.
type arrivalSource struct {
	*batchSource
	arrivals chan struct{}
}

var _ connector.ArrivalWaiter = (*arrivalSource)(nil)

func (s *arrivalSource) WaitArrival(ctx context.Context, d time.Duration) bool {
	select {
	case <-s.arrivals:
		return true
	case <-ctx.Done():
	case <-time.After(d):
	}
	return false
}

// With the default trigger an arrival starts the epoch though the
// (manual) clock never moves; with an interval the clock decides.
func TestArrivalStartsEpoch(t *testing.T) {
	for _, trig := range []Trigger{{}, {Interval: 10 * time.Second}} {
		t.Run(trig.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tbl := memtable.New(schema, nil)
			tbl.Append(batchOf(1))
			src := &arrivalSource{batchSource: &batchSource{Table: tbl}, arrivals: make(chan struct{}, 1)}
			scan := &exec.Scan{Source: src, Parallelism: 1}
			sink := &epochSink{failAfterWrite: -1}
			clock := NewManualClock(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))
			q := &Query{Name: "t", Checkpoint: &Checkpoint{Store: storage.NewMemStore(""), Prefix: "cp/"}, Trigger: trig,
				Clock: clock, Source: src, Scan: scan, Root: &exec.Stage{Scan: scan}, Sink: sink, Owner: "test"}
			epochs := make(chan Progress, 10)
			q.OnProgress = func(p Progress) { epochs <- p }
			stop := make(chan struct{})
			done := make(chan error, 1)
			go func() { done <- q.Run(ctx, stop) }()
			<-epochs
			waitWaiters(t, clock)
			tbl.Append(batchOf(2))
			src.arrivals <- struct{}{}
			select {
			case p := <-epochs:
				if trig.Interval > 0 {
					t.Fatalf("an arrival started epoch %d before the %v trigger", p.Epoch, trig)
				}
			case <-time.After(time.Second):
				if trig.Interval == 0 {
					t.Fatal("the arrival started no epoch")
				}
				clock.Advance(trig.Interval)
				<-epochs
			}
			close(stop)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if got := sink.all(); fmt.Sprint(got) != "[1 2]" {
				t.Fatalf("sink holds %v", got)
			}
		})
	}
}
