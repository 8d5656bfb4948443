package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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
	// boundary holds the key values of the worst row kept by the last
	// compaction, once n+offset rows are kept: later rows that do not
	// sort strictly before it can never make the cut and are dropped
	// before buffering.
	boundary []arrow.Array
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
	if t.boundary != nil {
		better, err := t.beatBoundary(ctx, batch)
		if err != nil {
			return err
		}
		if len(better) == 0 {
			return nil
		}
		if len(better) < int(batch.NumRows()) {
			kept, err := takeRows(ctx, batch, better)
			if err != nil {
				return fmt.Errorf("top-n: %w", err)
			}
			t.buf = append(t.buf, kept)
			t.rows += kept.NumRows()
			return t.maybeCompact(ctx)
		}
	}
	batch.Retain()
	t.buf = append(t.buf, batch)
	t.rows += batch.NumRows()
	return t.maybeCompact(ctx)
}

func (t *TopN) maybeCompact(ctx context.Context) error {
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
	releaseAll(t.boundary)
	t.boundary = nil
	if best.NumRows() == t.n+t.offset && best.NumRows() > 0 {
		last := best.NewSlice(best.NumRows()-1, best.NumRows())
		defer last.Release()
		if t.boundary, err = evalAll(ctx, sortExprs(t.keys), last); err != nil {
			return fmt.Errorf("top-n: %w", err)
		}
	}
	return nil
}

// beatBoundary returns the rows of batch that sort strictly before the
// boundary row.
func (t *TopN) beatBoundary(ctx context.Context, batch arrow.RecordBatch) ([]int32, error) {
	keys, err := evalAll(ctx, sortExprs(t.keys), batch)
	if err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	defer releaseAll(keys)
	cols := make([]arrow.Array, len(keys))
	defer releaseAll(cols)
	for i, k := range keys {
		// Row 0 is the boundary, rows 1.. the batch.
		if cols[i], err = array.Concatenate([]arrow.Array{t.boundary[i], k}, memAlloc); err != nil {
			return nil, fmt.Errorf("top-n: %w", err)
		}
	}
	rc, err := rowsCmp(t.keys, cols)
	if err != nil {
		return nil, fmt.Errorf("top-n: %w", err)
	}
	var better []int32
	for i := 1; i <= int(batch.NumRows()); i++ {
		if rc(i, 0) < 0 {
			better = append(better, int32(i-1))
		}
	}
	return better, nil
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
		releaseAll(t.boundary)
		t.boundary = nil
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

// StateDescription is what chose the candidates (keys, limit, offset)
// and their columns.
func (t *TopN) StateDescription() StateDescription {
	return StateDescription{Kind: "top_n", Props: []StateProperty{
		{Name: "sort keys", Value: describeSortKeys(t.keys)},
		{Name: "limit", Value: fmt.Sprint(t.n)},
		{Name: "offset", Value: fmt.Sprint(t.offset)},
		{Name: "columns", Value: describeSchema(t.schema)},
	}}
}

// Restore replaces the candidates with the snapshot's rows.
func (t *TopN) Restore(r io.Reader) error {
	_, rows, err := readRows(r)
	if err != nil {
		return fmt.Errorf("top-n restore: %w", err)
	}
	releaseBatches(t.buf)
	releaseAll(t.boundary)
	t.buf, t.rows, t.boundary = rows, 0, nil
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
