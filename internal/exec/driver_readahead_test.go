package exec

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
)

// stallSource serves seqTable's two splits its own way: the first sends
// one batch and then stalls until release closes; the second sends many
// small batches, counting them.
type stallSource struct {
	connector.Source
	t       testing.TB
	first   string
	release chan struct{}
	sent    atomic.Int64
	many    int
}

func (s *stallSource) Open(ctx context.Context, sp connector.Split) (connector.RecordReader, error) {
	return &stallReader{s: s, stall: sp.ID() == s.first}, nil
}

type stallReader struct {
	s     *stallSource
	stall bool
	n     int
}

func (r *stallReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.stall {
		if r.n > 0 {
			select {
			case <-r.s.release:
				return nil, io.EOF
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		r.n++
		return batchOf(r.s.t, []string{"x"}, ints(int64(-1))), nil
	}
	if r.n == r.s.many {
		return nil, io.EOF
	}
	r.n++
	r.s.sent.Add(1)
	return batchOf(r.s.t, []string{"x"}, ints(int64(r.n))), nil
}

func (r *stallReader) Close() error { return nil }

// TestOrderedScanReadsAhead: while the driver waits on a split that
// stalls, the worker on the next split keeps reading (its small batches
// are far below the feed's bytes), instead of stopping a few batches in:
// a slow split holds up delivery, not decoding.
func TestOrderedScanReadsAhead(t *testing.T) {
	base := seqTable(t, 2, 1)
	splits, err := base.Plan(context.Background(), nil, nil)
	if err != nil || len(splits) != 2 {
		t.Fatalf("splits %v, %v", splits, err)
	}
	src := &stallSource{Source: base, t: t, first: splits[0].ID(), release: make(chan struct{}), many: 100}
	out := NewCollect()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), &Stage{Scan: &Scan{Source: src, Splits: splits, Parallelism: 2}}, WatermarkEnd, out, nil)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for src.sent.Load() < int64(src.many) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	read := src.sent.Load()
	close(src.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if read < int64(src.many) {
		t.Fatalf("the second split read %d of %d batches while the first stalled", read, src.many)
	}
	rows := rowsOf(out.Batches())
	if len(rows) != 1+src.many || rows[0] != "-1" || rows[1] != "1" || rows[len(rows)-1] != "100" {
		t.Fatalf("order not kept: %d rows, first %v", len(rows), rows[:3])
	}
}
