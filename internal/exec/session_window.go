package exec

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
)

// SessionWindow assigns SESSION(ts, gap) windows in a bounded query: per
// key, events closer than gap to the previous one share a session whose
// start is the first event and whose end is the last event plus gap, as
// in Spark. It buffers its input and emits every row with the session
// appended when input ends (watermark +infinity). Rows with a NULL time
// get a NULL session.
type SessionWindow struct {
	schema *arrow.Schema
	in     *arrow.Schema
	keys   []expr.Expr
	ts     expr.Expr
	gap    int64
	buf    []arrow.RecordBatch
}

var _ Operator = (*SessionWindow)(nil)

// NewSessionWindow appends a column named name of expr.WindowType.
func NewSessionWindow(in *arrow.Schema, keys []expr.Expr, ts expr.Expr, gap int64, name string) (*SessionWindow, error) {
	if ts.Type().ID() != arrow.TIMESTAMP {
		return nil, fmt.Errorf("session window: %s is not a TIMESTAMP", ts)
	}
	if gap <= 0 {
		return nil, fmt.Errorf("session window: the gap must be positive")
	}
	fs := append(append([]arrow.Field{}, in.Fields()...), arrow.Field{Name: name, Type: expr.WindowType, Nullable: true})
	return &SessionWindow{schema: arrow.NewSchema(fs, nil), in: in, keys: keys, ts: ts, gap: gap}, nil
}

// Schema is the input's columns then the session.
func (s *SessionWindow) Schema() *arrow.Schema { return s.schema }

// Process buffers the batch.
func (s *SessionWindow) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	if batch.NumRows() > 0 {
		batch.Retain()
		s.buf = append(s.buf, batch)
	}
	return nil
}

// OnWatermark assigns and emits every buffered row once input ends.
func (s *SessionWindow) OnWatermark(ctx context.Context, t int64, out Output) error {
	if t == WatermarkEnd && len(s.buf) > 0 {
		if err := s.emit(ctx, out); err != nil {
			return err
		}
	}
	return out.Send(ctx, Message{Watermark: t})
}

// EndEpoch does nothing: sessions close only at the end of input.
func (s *SessionWindow) EndEpoch(ctx context.Context, out Output) error { return nil }

func (s *SessionWindow) emit(ctx context.Context, out Output) error {
	all, err := concatRows(s.in, s.buf)
	for _, b := range s.buf {
		b.Release()
	}
	s.buf = nil
	if err != nil {
		return fmt.Errorf("session window: %w", err)
	}
	defer all.Release()
	n := int(all.NumRows())
	keyCols, err := evalAll(ctx, s.keys, all)
	if err != nil {
		return fmt.Errorf("session window: %w", err)
	}
	defer releaseAll(keyCols)
	types := make([]arrow.DataType, len(s.keys))
	for i, k := range s.keys {
		types[i] = k.Type()
	}
	ids := make([]uint32, n)
	if len(s.keys) > 0 {
		newKeyTable(types).assign(keyCols, n, ids, nil)
	}
	tsArr, err := s.ts.Eval(ctx, all)
	if err != nil {
		return fmt.Errorf("session window: %w", err)
	}
	defer tsArr.Release()
	ts := tsArr.(*array.Timestamp)
	order := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if !ts.IsNull(i) {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		ia, ib := order[a], order[b]
		if ids[ia] != ids[ib] {
			return ids[ia] < ids[ib]
		}
		return ts.Value(ia) < ts.Value(ib)
	})
	starts := make([]int64, n)
	ends := make([]int64, n)
	for i := 0; i < len(order); {
		j, start, end := i, int64(ts.Value(order[i])), int64(ts.Value(order[i]))+s.gap
		for j+1 < len(order) && ids[order[j+1]] == ids[order[i]] && int64(ts.Value(order[j+1])) < end {
			j++
			end = max(end, int64(ts.Value(order[j]))+s.gap)
		}
		for k := i; k <= j; k++ {
			starts[order[k]], ends[order[k]] = start, end
		}
		i = j + 1
	}
	sb := array.NewStructBuilder(memory.DefaultAllocator, expr.WindowType.(*arrow.StructType))
	defer sb.Release()
	sbStart := sb.FieldBuilder(0).(*array.TimestampBuilder)
	sbEnd := sb.FieldBuilder(1).(*array.TimestampBuilder)
	for i := 0; i < n; i++ {
		if ts.IsNull(i) {
			sb.AppendNull()
			continue
		}
		sb.Append(true)
		sbStart.Append(arrow.Timestamp(starts[i]))
		sbEnd.Append(arrow.Timestamp(ends[i]))
	}
	sess := sb.NewArray()
	defer sess.Release()
	cols := append(append([]arrow.Array{}, all.Columns()...), sess)
	rec := array.NewRecordBatch(s.schema, cols, int64(n))
	defer rec.Release()
	return sendSliced(ctx, rec, out)
}

func (s *SessionWindow) String() string {
	return fmt.Sprintf("SessionWindow %s gap=%dus keys=%d", s.ts, s.gap, len(s.keys))
}
