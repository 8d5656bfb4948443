package exec

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cespare/xxhash/v2"
)

// WindowPartial is the partial aggregate of one (window, partition) over
// some input: State is a HashAggregate snapshot with the window
// aggregate's keys and accumulators, which WindowAggregate.MergePartialState
// folds in (docs/scale-out.md, part 2).
type WindowPartial struct {
	Partition  int
	Start, End int64
	State      []byte
}

// WindowPartitioner is the reader side of a keyed stream: in place of a
// WindowAggregate it folds rows into one private aggregate per (window,
// partition), a partition being the hash of the group keys other than
// the window modulo the partition count, and emits nothing; Take hands
// the partials over. It keeps no state across Take.
type WindowPartitioner struct {
	Base
	w     *WindowAggregate
	parts int
	aggs  map[[2]int64]*partialWindow
	enc   keyEncoder
}

type partialWindow struct {
	end int64
	agg *HashAggregate
}

var _ Operator = (*WindowPartitioner)(nil)

// Partitioner is a WindowPartitioner with w's keys and aggregates over
// parts partitions.
func (w *WindowAggregate) Partitioner(parts int) *WindowPartitioner {
	return &WindowPartitioner{w: w, parts: parts, aggs: map[[2]int64]*partialWindow{}}
}

// Schema is the window aggregate's (nothing is emitted).
func (p *WindowPartitioner) Schema() *arrow.Schema { return p.w.schema }

func (p *WindowPartitioner) String() string {
	return fmt.Sprintf("WindowPartitioner partitions=%d %s", p.parts, p.w)
}

// Process routes each row to its (window, partition) aggregate. Rows of
// no window (NULL event time) are skipped, as WindowAggregate does.
func (p *WindowPartitioner) Process(ctx context.Context, batch arrow.RecordBatch, _ Output) error {
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	w := p.w
	cols := make([]arrow.Array, len(w.groupBy))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, g := range w.groupBy {
		c, err := g.Eval(ctx, batch)
		if err != nil {
			return fmt.Errorf("window partitioner: %w", err)
		}
		cols[i] = c
	}
	var sa *array.Struct
	var starts, ends *array.Timestamp
	if w.window != noWindow {
		sa = cols[w.window].(*array.Struct)
		starts = sa.Field(0).(*array.Timestamp)
		ends = sa.Field(1).(*array.Timestamp)
	}
	// A row's partition is the hash of its keys' binary encoding (the
	// aggregate's own, the same in every process), the window left out.
	keyCols := make([]arrow.Array, 0, len(cols)-1)
	for c, col := range cols {
		if c != w.window {
			keyCols = append(keyCols, col)
		}
	}
	enc := p.enc.encode(keyCols, n)
	rows := map[[2]int64][]int64{}
	var order [][2]int64
	for i := 0; i < n; i++ {
		start, end := wholeStream[0], wholeStream[1]
		if sa != nil {
			if sa.IsNull(i) || starts.IsNull(i) {
				continue
			}
			start, end = int64(starts.Value(i)), int64(ends.Value(i))
		}
		k := [2]int64{start, int64(xxhash.Sum64(enc[i]) % uint64(p.parts))}
		if _, ok := rows[k]; !ok {
			order = append(order, k)
			if _, open := p.aggs[k]; !open {
				agg, err := NewHashAggregate(w.groupBy, w.names, w.aggs)
				if err != nil {
					return err
				}
				p.aggs[k] = &partialWindow{end: end, agg: agg}
			}
		}
		rows[k] = append(rows[k], int64(i))
	}
	for _, k := range order {
		pw := p.aggs[k]
		idx := rows[k]
		if len(idx) == n {
			if err := pw.agg.Process(ctx, batch, nil); err != nil {
				return err
			}
			continue
		}
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues(idx, nil)
		ia := b.NewArray()
		b.Release()
		sub, err := compute.Take(ctx, *compute.DefaultTakeOptions(), compute.NewDatumWithoutOwning(batch), compute.NewDatumWithoutOwning(ia))
		ia.Release()
		if err != nil {
			return fmt.Errorf("window partitioner: %w", err)
		}
		rb := sub.(*compute.RecordDatum).Value
		err = pw.agg.Process(ctx, rb, nil)
		rb.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// OnWatermark swallows the watermark: readers close no window.
func (p *WindowPartitioner) OnWatermark(context.Context, int64, Output) error { return nil }

// Take returns the partials folded since the last Take, ordered by
// partition then window, and forgets them.
func (p *WindowPartitioner) Take() ([]WindowPartial, error) {
	ks := make([][2]int64, 0, len(p.aggs))
	for k := range p.aggs {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i][1] != ks[j][1] {
			return ks[i][1] < ks[j][1]
		}
		return ks[i][0] < ks[j][0]
	})
	out := make([]WindowPartial, 0, len(ks))
	for _, k := range ks {
		pw := p.aggs[k]
		var buf bytes.Buffer
		if err := pw.agg.Snapshot(&buf); err != nil {
			return nil, fmt.Errorf("window partitioner: %w", err)
		}
		pw.agg.Reset()
		out = append(out, WindowPartial{Partition: int(k[1]), Start: k[0], End: pw.end, State: buf.Bytes()})
	}
	clear(p.aggs)
	return out, nil
}

// Discard forgets the partials folded since the last Take (an epoch that
// failed).
func (p *WindowPartitioner) Discard() {
	for _, pw := range p.aggs {
		pw.agg.Reset()
	}
	clear(p.aggs)
}

// MergePartialState folds a WindowPartial's state into window [start,
// end), opening it if needed. A window ending at or before watermark is
// closed already: its partial is late, counted and dropped (late is
// false then).
func (w *WindowAggregate) MergePartialState(ctx context.Context, start, end int64, state []byte, watermark int64) (merged bool, err error) {
	if end <= watermark {
		return false, nil
	}
	part, err := NewHashAggregate(w.groupBy, w.names, w.aggs)
	if err != nil {
		return false, err
	}
	if err := part.Restore(bytes.NewReader(state)); err != nil {
		return false, fmt.Errorf("window aggregate: reading a partial: %w", err)
	}
	ow, open := w.windows[start]
	if !open {
		agg, err := w.newWindowAgg()
		if err != nil {
			return false, err
		}
		ow = &openWindow{start: start, end: end, agg: agg}
		w.windows[start] = ow
	}
	if w.window == noWindow {
		if err := w.noteChanged(part); err != nil {
			return false, err
		}
	}
	ow.dirty = true
	w.changed[start] = struct{}{}
	if err := ow.agg.MergePartial(ctx, &aggPartial{h: part, rows: 1}); err != nil {
		return false, w.overBudget(err, ow.agg)
	}
	return true, nil
}

// OpenWindowEnds lists the open windows' [start, end) pairs.
func (w *WindowAggregate) OpenWindowEnds() [][2]int64 {
	out := make([][2]int64, 0, len(w.windows))
	for _, s := range w.sortedStarts() {
		out = append(out, [2]int64{s, w.windows[s].end})
	}
	return out
}

// Fresh is an empty WindowAggregate with w's keys, aggregates and mode:
// one per partition of a keyed stream.
func (w *WindowAggregate) Fresh() (*WindowAggregate, error) {
	if w.window == noWindow {
		return unwindowed(w.groupBy, w.names, w.aggs, w.mode, w.schema), nil
	}
	return NewWindowAggregate(w.groupBy, w.names, w.aggs, w.window, w.mode)
}

// Mode is the aggregate's output mode.
func (w *WindowAggregate) Mode() OutputMode { return w.mode }
