package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Update mode writes, at each epoch's end, only the groups the epoch's
// rows changed, as Spark's does: a window that got rows for one key does
// not write its other keys again (an upserting sink would not notice,
// but a file sink would hold the unchanged rows twice). The aggregate of
// such a window tracks the groups it touched since the last
// EmitTouched; the set is not checkpointed, since a replayed epoch
// starts from the state before it and touches the same groups again.

// TrackTouched makes h remember which groups Process and MergePartial
// change, for EmitTouched.
func (h *HashAggregate) TrackTouched() {
	h.tracking = true
	h.touched = h.touched[:0]
}

// touch marks the groups of ids as changed.
func (h *HashAggregate) touch(ids []uint32) {
	if !h.tracking {
		return
	}
	for len(h.touched) < h.table.size() {
		h.touched = append(h.touched, false)
	}
	for _, id := range ids {
		h.touched[id] = true
	}
}

// EmitTouched sends one row per group changed since the last
// EmitTouched (every group when h does not track them, or for no keys),
// in the order EmitAll would, and forgets the changes.
func (h *HashAggregate) EmitTouched(ctx context.Context, out Output) error {
	if !h.tracking || len(h.groupBy) == 0 {
		h.touched = h.touched[:0]
		return h.EmitAll(ctx, out)
	}
	b, err := h.result()
	if err != nil {
		return fmt.Errorf("hash aggregate: %w", err)
	}
	defer b.Release()
	order := h.inputOrder()
	rows := make([]int, 0, len(h.touched))
	for i := 0; i < int(b.NumRows()); i++ {
		g := i
		if order != nil {
			g = order[i]
		}
		if g < len(h.touched) && h.touched[g] {
			rows = append(rows, i)
		}
	}
	h.touched = h.touched[:0]
	if len(rows) == int(b.NumRows()) {
		return sendSliced(ctx, b, out)
	}
	return sendRows(ctx, b, rows, out)
}

// sendRows sends the rows of b (in that order) to out; nothing for none.
func sendRows(ctx context.Context, b arrow.RecordBatch, rows []int, out Output) error {
	if len(rows) == 0 {
		return nil
	}
	cols := make([]arrow.Array, b.NumCols())
	for i, c := range b.Columns() {
		var err error
		if cols[i], err = gather(ctx, c, rows); err != nil {
			releaseAll(cols[:i])
			return err
		}
	}
	sub := array.NewRecordBatch(b.Schema(), cols, int64(len(rows)))
	releaseAll(cols)
	defer sub.Release()
	return sendSliced(ctx, sub, out)
}
