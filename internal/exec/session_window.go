package exec

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
)

// SessionWindow assigns SESSION(ts, gap) windows: per key, events closer
// than gap to the previous one share a session whose start is the first
// event and whose end is the last event plus gap, as in Spark. It
// buffers rows and, at each watermark, emits the rows of every session
// the watermark has closed (end <= watermark), with the session
// appended; rows of open sessions stay buffered (and snapshotted) until a
// later watermark closes them, so a downstream window aggregate sees each
// session whole. A bounded query ends with watermark +infinity, which
// closes every session. Rows with a NULL time get a NULL session at once.
type SessionWindow struct {
	schema *arrow.Schema
	in     *arrow.Schema
	keys   []expr.Expr
	ts     expr.Expr
	gap    int64
	buf    []arrow.RecordBatch
	late   *EventTime // nil: no row is late
}

var (
	_ Operator = (*SessionWindow)(nil)
	_ Stateful = (*SessionWindow)(nil)
)

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

// DropLateFrom makes the session window judge lateness against et's
// late watermark W, the previous epoch's, as Spark does: a row whose own
// session [ts, ts+gap) ends at or before W is late (dropped and counted
// on et), since the sessions it could merge with were closed and
// emitted when that epoch ended; any other row joins or starts a
// session, however old its event time.
func (s *SessionWindow) DropLateFrom(et *EventTime) { s.late = et }

// Process buffers the batch, less its late rows.
func (s *SessionWindow) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	if batch.NumRows() == 0 {
		return nil
	}
	if s.late != nil && s.late.LateWatermark() != math.MinInt64 {
		kept, err := s.dropLate(ctx, batch, s.late.LateWatermark())
		if err != nil {
			return err
		}
		if kept == nil {
			return nil
		}
		s.buf = append(s.buf, kept)
		return nil
	}
	batch.Retain()
	s.buf = append(s.buf, batch)
	return nil
}

// dropLate returns batch (retained) without the rows whose ts + gap <=
// wm, nil when none is left, and counts the dropped ones.
func (s *SessionWindow) dropLate(ctx context.Context, batch arrow.RecordBatch, wm int64) (arrow.RecordBatch, error) {
	tsArr, err := s.ts.Eval(ctx, batch)
	if err != nil {
		return nil, fmt.Errorf("session window: %w", err)
	}
	defer tsArr.Release()
	ts := tsArr.(*array.Timestamp)
	n := ts.Len()
	lateAt := func(i int) bool { return !ts.IsNull(i) && int64(ts.Value(i)) <= wm-s.gap }
	late := 0
	for i := 0; i < n; i++ {
		if lateAt(i) {
			late++
		}
	}
	if late == 0 {
		batch.Retain()
		return batch, nil
	}
	s.late.AddLate(int64(late))
	if late == n {
		return nil, nil
	}
	mb := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer mb.Release()
	mb.Reserve(n)
	for i := 0; i < n; i++ {
		mb.UnsafeAppend(!lateAt(i))
	}
	mask := mb.NewBooleanArray()
	defer mask.Release()
	kept, err := compute.FilterRecordBatch(ctx, batch, mask, compute.DefaultFilterOptions())
	if err != nil {
		return nil, fmt.Errorf("session window: dropping late rows: %w", err)
	}
	return kept, nil
}

// OnWatermark emits the rows of the sessions the watermark closed.
func (s *SessionWindow) OnWatermark(ctx context.Context, t int64, out Output) error {
	if len(s.buf) > 0 {
		if err := s.emit(ctx, t, out); err != nil {
			return err
		}
	}
	return out.Send(ctx, Message{Watermark: t})
}

// EndEpoch does nothing: sessions close on watermarks.
func (s *SessionWindow) EndEpoch(ctx context.Context, out Output) error { return nil }

// Snapshot writes the rows of open sessions.
func (s *SessionWindow) Snapshot(w io.Writer) error {
	if err := writeRows(w, s.in, s.buf); err != nil {
		return fmt.Errorf("session window snapshot: %w", err)
	}
	return nil
}

// Restore replaces the buffered rows with the snapshot's.
func (s *SessionWindow) Restore(r io.Reader) error {
	_, rows, err := readRows(r)
	if err != nil {
		return fmt.Errorf("session window restore: %w", err)
	}
	releaseBatches(s.buf)
	s.buf = rows
	return nil
}

// StateDescription is the keys, the time, the gap and the buffered rows'
// columns: a filter in front that reads another column changes those.
func (s *SessionWindow) StateDescription() StateDescription {
	return StateDescription{Kind: "session_window", Props: []StateProperty{
		{Name: "session keys", Value: describeExprs(s.keys)},
		{Name: "event time", Value: s.ts.String()},
		{Name: "gap", Value: fmt.Sprintf("%dus", s.gap)},
		{Name: "buffered columns", Value: describeSchema(s.in)},
	}}
}

func (s *SessionWindow) emit(ctx context.Context, watermark int64, out Output) error {
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
	// Rows of sessions still open stay buffered for a later watermark.
	closedB := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer closedB.Release()
	openB := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer openB.Release()
	open := 0
	for i := 0; i < n; i++ {
		done := ts.IsNull(i) || ends[i] <= watermark
		closedB.Append(done)
		openB.Append(!done)
		if !done {
			open++
		}
	}
	closed, stillOpen := closedB.NewBooleanArray(), openB.NewBooleanArray()
	defer closed.Release()
	defer stillOpen.Release()
	cols := append(append([]arrow.Array{}, all.Columns()...), sess)
	rec := array.NewRecordBatch(s.schema, cols, int64(n))
	defer rec.Release()
	if open == 0 {
		return sendSliced(ctx, rec, out)
	}
	keep, err := compute.FilterRecordBatch(ctx, all, stillOpen, compute.DefaultFilterOptions())
	if err != nil {
		return fmt.Errorf("session window: %w", err)
	}
	s.buf = []arrow.RecordBatch{keep}
	if open == n {
		return nil
	}
	done, err := compute.FilterRecordBatch(ctx, rec, closed, compute.DefaultFilterOptions())
	if err != nil {
		return fmt.Errorf("session window: %w", err)
	}
	defer done.Release()
	return sendSliced(ctx, done, out)
}

func (s *SessionWindow) String() string {
	return fmt.Sprintf("SessionWindow %s gap=%dus keys=%d", s.ts, s.gap, len(s.keys))
}
