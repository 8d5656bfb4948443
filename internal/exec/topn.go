package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// TopN is ORDER BY ... LIMIT n OFFSET offset without sorting everything:
// it keeps at most about 2*(n+offset) candidate rows, compacting them to
// the best n+offset whenever the buffer doubles, and emits rows
// [offset, offset+n) of the final order at WatermarkEnd. Ties keep
// arrival order, as in Sort.
type TopN struct {
	schema    *arrow.Schema
	keys      []SortKey
	n, offset int64

	buf  []arrow.RecordBatch
	rows int64
}

var (
	_ Operator = (*TopN)(nil)
	_ Stateful = (*TopN)(nil)
)

// minCompact keeps tiny limits from compacting on every batch.
const minCompact = 4096

// NewTopN returns the first n rows after offset of rows of schema sorted
// by keys.
func NewTopN(schema *arrow.Schema, keys []SortKey, n, offset int64) *TopN {
	return &TopN{schema: schema, keys: keys, n: n, offset: offset}
}

// Schema is the input schema.
func (t *TopN) Schema() *arrow.Schema { return t.schema }

// Process adds the batch to the candidates.
func (t *TopN) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	if batch.NumRows() == 0 || t.n == 0 {
		return nil
	}
	batch.Retain()
	t.buf = append(t.buf, batch)
	t.rows += batch.NumRows()
	if t.rows > max(2*(t.n+t.offset), minCompact) {
		return t.compact(ctx)
	}
	return nil
}

// compact keeps only the best n+offset rows, sorted.
func (t *TopN) compact(ctx context.Context) error {
	all, err := concatRows(t.schema, t.buf)
	releaseBatches(t.buf)
	t.buf, t.rows = nil, 0
	if err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	defer all.Release()
	idx, err := sortedIndices(ctx, t.keys, all)
	if err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	if keep := t.n + t.offset; int64(len(idx)) > keep {
		idx = idx[:keep]
	}
	best, err := takeRows(ctx, all, idx)
	if err != nil {
		return fmt.Errorf("top-n: %w", err)
	}
	t.buf, t.rows = []arrow.RecordBatch{best}, best.NumRows()
	return nil
}

// OnWatermark emits the window of the order at WatermarkEnd, then
// forwards t.
func (t *TopN) OnWatermark(ctx context.Context, wm int64, out Output) error {
	if wm == WatermarkEnd && len(t.buf) > 0 {
		if err := t.compact(ctx); err != nil {
			return err
		}
		best := t.buf[0]
		t.buf, t.rows = nil, 0
		lo := min(t.offset, best.NumRows())
		res := best.NewSlice(lo, best.NumRows())
		best.Release()
		err := sendSliced(ctx, res, out)
		res.Release()
		if err != nil {
			return err
		}
	}
	return out.Send(ctx, Message{Watermark: wm})
}

// EndEpoch does nothing: rows wait for the end watermark.
func (t *TopN) EndEpoch(ctx context.Context, out Output) error { return nil }

// Snapshot writes the candidate rows as Arrow IPC.
func (t *TopN) Snapshot(w io.Writer) error {
	if err := writeRows(w, t.schema, t.buf); err != nil {
		return fmt.Errorf("top-n snapshot: %w", err)
	}
	return nil
}

// Restore replaces the candidates with the snapshot's rows.
func (t *TopN) Restore(r io.Reader) error {
	_, rows, err := readRows(r)
	if err != nil {
		return fmt.Errorf("top-n restore: %w", err)
	}
	releaseBatches(t.buf)
	t.buf, t.rows = rows, 0
	for _, b := range rows {
		t.rows += b.NumRows()
	}
	return nil
}

// String is the EXPLAIN line: TopN 10 [count DESC].
func (t *TopN) String() string {
	s := fmt.Sprintf("TopN %d", t.n)
	if t.offset > 0 {
		s += fmt.Sprintf(" offset=%d", t.offset)
	}
	return s + " " + sortKeysString(t.keys)
}
