package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
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

// OutputMode says when a streaming aggregate writes its groups.
type OutputMode int

// Output modes, as in Spark Structured Streaming.
const (
	// Append writes each window once, when the watermark passes its end,
	// then drops it.
	Append OutputMode = iota
	// Update writes the groups that changed, at each epoch's end;
	// windows older than the watermark are then dropped.
	Update
	// Complete writes every group at each epoch's end (small unwindowed
	// results).
	Complete
)

func (m OutputMode) String() string { return [...]string{"append", "update", "complete"}[m] }

// WindowAggregate is a streaming aggregation keyed by an event-time window
// (one of the GROUP BY keys is TUMBLE/HOP/window(...), a STRUCT<start,
// end>) and the other keys. Each open window holds its own HashAggregate,
// so closing a window drops exactly its state: memory is bounded by open
// windows, not by history. Rows of one window never mix with another's.
type WindowAggregate struct {
	groupBy []expr.Expr
	names   []string
	aggs    []*expr.Aggregate
	window  int // index in groupBy of the window key
	mode    OutputMode
	schema  *arrow.Schema

	windows map[int64]*openWindow // by window start (µs)

	// changed and removed are the windows opened or updated, and closed,
	// since the last save (see Incremental): a delta holds only those.
	changed, removed map[int64]struct{}

	// Reused across batches and saves: the profile showed per-batch
	// maps and builders as a large share of the stream's allocation.
	rowsBy  map[int64][]int64
	order   []int64
	idx     *array.Int64Builder
	snapBuf bytes.Buffer
	enc     keyEncoder // shared by the windows' aggregates, one at a time

	budget  *MemoryBudget
	stateID string

	// changedKeys are the encoded keys of the groups partials changed
	// since the last EndEpoch (KeyedGroups' aggregate only).
	changedKeys map[string]struct{}

	// late, when set, supplies the epoch's watermark and counts the rows
	// dropped because their window is already closed.
	late *EventTime
}

type openWindow struct {
	start, end int64
	agg        *HashAggregate
	dirty      bool
}

var (
	_ Operator      = (*WindowAggregate)(nil)
	_ Stateful      = (*WindowAggregate)(nil)
	_ Incremental   = (*WindowAggregate)(nil)
	_ StateBudgeted = (*WindowAggregate)(nil)
)

// SetStateBudget makes open windows whose state outgrows b an error
// naming id.
func (w *WindowAggregate) SetStateBudget(id string, b *MemoryBudget) {
	w.budget, w.stateID = b, id
	for _, ow := range w.windows {
		w.budgetAgg(ow.agg)
	}
}

// newWindowAgg is one window's aggregate, under the operator's budget
// and sharing its key encoder.
func (w *WindowAggregate) newWindowAgg() (*HashAggregate, error) {
	agg, err := NewHashAggregate(w.groupBy, w.names, w.aggs)
	if err != nil {
		return nil, err
	}
	w.budgetAgg(agg)
	if w.mode == Update && w.window != noWindow {
		agg.TrackTouched()
	}
	agg.enc = &w.enc
	agg.table.shared = agg.enc
	return agg, nil
}

func (w *WindowAggregate) budgetAgg(h *HashAggregate) {
	if w.budget != nil {
		h.budget, h.noSpill, h.stateID = w.budget, true, w.stateID
	}
}

// overBudget turns one window's StateTooLargeError into one about the
// whole operator: every open window's state counts.
func (w *WindowAggregate) overBudget(err error, in *HashAggregate) error {
	var st *StateTooLargeError
	if !errors.As(err, &st) {
		return err
	}
	held := st.Held
	for _, ow := range w.windows {
		if ow.agg != in {
			held += ow.agg.held
		}
	}
	return &StateTooLargeError{ID: w.stateID, Held: held, Limit: st.Limit, MemoryLimit: st.MemoryLimit, Hint: "shorten the window or the watermark delay"}
}

// NewWindowAggregate aggregates per window; groupBy[window] must be a
// STRUCT whose first two fields are the window's start and end.
func NewWindowAggregate(groupBy []expr.Expr, names []string, aggs []*expr.Aggregate, window int, mode OutputMode) (*WindowAggregate, error) {
	st, ok := groupBy[window].Type().(*arrow.StructType)
	if !ok || st.NumFields() < 2 || st.Field(0).Type.ID() != arrow.TIMESTAMP || st.Field(1).Type.ID() != arrow.TIMESTAMP {
		return nil, fmt.Errorf("window aggregate: key %s is not a window", groupBy[window])
	}
	proto, err := NewHashAggregate(groupBy, names, aggs)
	if err != nil {
		return nil, err
	}
	return &WindowAggregate{groupBy: groupBy, names: names, aggs: aggs, window: window, mode: mode,
		schema: proto.Schema(), windows: map[int64]*openWindow{},
		changed: map[int64]struct{}{}, removed: map[int64]struct{}{}, rowsBy: map[int64][]int64{}}, nil
}

// DropLateFrom makes the aggregate judge lateness against et's late
// watermark, the previous epoch's: windows ending at or before it were
// emitted or evicted when that epoch ended, so, as in Spark, a row of
// such a window is late, dropped and counted on et; a row of a window
// still open is added even if its event time is older than the
// watermark (its window is then emitted when this epoch ends).
func (w *WindowAggregate) DropLateFrom(et *EventTime) {
	w.late = et
}

// Schema is the keys then the aggregates, as HashAggregate's.
func (w *WindowAggregate) Schema() *arrow.Schema { return w.schema }

// OpenWindows is the number of windows holding state.
func (w *WindowAggregate) OpenWindows() int { return len(w.windows) }

// Process routes each row to its window's aggregate. Rows whose window is
// NULL (NULL event time) belong to none and are skipped.
func (w *WindowAggregate) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	win, err := w.groupBy[w.window].Eval(ctx, batch)
	if err != nil {
		return fmt.Errorf("window aggregate: %w", err)
	}
	defer win.Release()
	sa := win.(*array.Struct)
	starts := sa.Field(0).(*array.Timestamp)
	ends := sa.Field(1).(*array.Timestamp)
	rows := w.rowsBy
	for s, idx := range rows {
		rows[s] = idx[:0]
	}
	order := w.order[:0]
	last := int64(0)
	wm, late := int64(math.MinInt64), int64(0)
	if w.late != nil {
		wm = w.late.LateWatermark()
	}
	for i := 0; i < n; i++ {
		if sa.IsNull(i) || starts.IsNull(i) {
			continue
		}
		if w.late != nil && int64(ends.Value(i)) <= wm {
			late++
			continue
		}
		s := int64(starts.Value(i))
		// Consecutive rows mostly share a window: skip the lookup then. A
		// window already met in this batch has rows in its slice.
		if len(order) == 0 || s != last && len(rows[s]) == 0 {
			order = append(order, s)
			if _, open := w.windows[s]; !open {
				agg, err := w.newWindowAgg()
				if err != nil {
					return err
				}
				w.windows[s] = &openWindow{start: s, end: int64(ends.Value(i)), agg: agg}
			}
		}
		last = s
		rows[s] = append(rows[s], int64(i))
	}
	w.order = order
	if late > 0 {
		w.late.AddLate(late)
	}
	for _, s := range order {
		ow := w.windows[s]
		ow.dirty = true
		w.changed[s] = struct{}{}
		idx := rows[s]
		if len(idx) == n {
			if err := ow.agg.Process(ctx, batch, out); err != nil {
				return w.overBudget(err, ow.agg)
			}
			continue
		}
		if w.idx == nil {
			w.idx = array.NewInt64Builder(memory.DefaultAllocator)
		}
		w.idx.AppendValues(idx, nil)
		ia := w.idx.NewArray()
		sub, err := compute.Take(ctx, *compute.DefaultTakeOptions(), compute.NewDatumWithoutOwning(batch), compute.NewDatumWithoutOwning(ia))
		ia.Release()
		if err != nil {
			return fmt.Errorf("window aggregate: %w", err)
		}
		rb := sub.(*compute.RecordDatum).Value
		err = ow.agg.Process(ctx, rb, out)
		rb.Release()
		if err != nil {
			return w.overBudget(err, ow.agg)
		}
	}
	// Windows that got no rows this batch keep no index slice: the map
	// stays as small as the windows in flight.
	for s, idx := range rows {
		if len(idx) == 0 {
			delete(rows, s)
		}
	}
	return nil
}

func (w *WindowAggregate) sortedStarts() []int64 {
	ss := make([]int64, 0, len(w.windows))
	for s := range w.windows {
		ss = append(ss, s)
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i] < ss[j] })
	return ss
}

// OnWatermark closes the windows whose end the watermark has passed: in
// append mode they are written now; in every mode their state goes.
func (w *WindowAggregate) OnWatermark(ctx context.Context, t int64, out Output) error {
	for _, s := range w.sortedStarts() {
		ow := w.windows[s]
		if ow.end > t {
			continue
		}
		if w.mode == Append {
			if err := ow.agg.EmitAll(ctx, out); err != nil {
				return err
			}
		} else if w.mode == Update && ow.dirty {
			if err := ow.agg.EmitTouched(ctx, out); err != nil {
				return err
			}
		}
		ow.agg.Reset()
		delete(w.windows, s)
		delete(w.changed, s)
		w.removed[s] = struct{}{}
	}
	return out.Send(ctx, Message{Watermark: t})
}

// EndEpoch writes changed windows (update) or all windows (complete).
func (w *WindowAggregate) EndEpoch(ctx context.Context, out Output) error {
	if w.mode == Append {
		return nil
	}
	if w.window == noWindow {
		return w.endEpochChanged(ctx, out)
	}
	for _, s := range w.sortedStarts() {
		ow := w.windows[s]
		if w.mode == Complete {
			if err := ow.agg.EmitAll(ctx, out); err != nil {
				return err
			}
		} else if ow.dirty {
			if err := ow.agg.EmitTouched(ctx, out); err != nil {
				return err
			}
		}
		ow.dirty = false
	}
	return nil
}

// Snapshot writes each open window: start, end, then its aggregate's
// snapshot, length-prefixed.
func (w *WindowAggregate) Snapshot(wr io.Writer) error {
	if err := w.writeWindows(wr, w.sortedStarts()); err != nil {
		return err
	}
	w.clearChanges()
	return nil
}

func (w *WindowAggregate) writeWindows(wr io.Writer, ss []int64) error {
	if err := binary.Write(wr, binary.LittleEndian, int64(len(ss))); err != nil {
		return err
	}
	buf := &w.snapBuf
	for _, s := range ss {
		ow := w.windows[s]
		buf.Reset()
		if err := ow.agg.Snapshot(buf); err != nil {
			return fmt.Errorf("window %d: %w", s, err)
		}
		if err := binary.Write(wr, binary.LittleEndian, [3]int64{ow.start, ow.end, int64(buf.Len())}); err != nil {
			return err
		}
		if _, err := wr.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	if buf.Cap() > 4<<20 {
		// One huge window must not pin its buffer for good.
		w.snapBuf = bytes.Buffer{}
	}
	return nil
}

func (w *WindowAggregate) clearChanges() {
	clear(w.changed)
	clear(w.removed)
}

// Restore replaces the open windows with a snapshot's.
func (w *WindowAggregate) Restore(r io.Reader) error {
	w.windows = map[int64]*openWindow{}
	w.clearChanges()
	w.changedKeys = nil
	return w.readWindows(r)
}

// readWindows adds (or replaces) the windows of a section written by
// writeWindows.
func (w *WindowAggregate) readWindows(r io.Reader) error {
	var n int64
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return fmt.Errorf("window aggregate snapshot: %w", err)
	}
	for i := int64(0); i < n; i++ {
		var hdr [3]int64
		if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
			return fmt.Errorf("window aggregate snapshot: %w", err)
		}
		if hdr[2] < 0 || hdr[2] > maxSection {
			return fmt.Errorf("corrupt window aggregate snapshot: window of %d bytes", hdr[2])
		}
		data := make([]byte, hdr[2])
		if _, err := io.ReadFull(r, data); err != nil {
			return fmt.Errorf("window aggregate snapshot: %w", err)
		}
		agg, err := w.newWindowAgg()
		if err != nil {
			return err
		}
		if err := agg.Restore(bytes.NewReader(data)); err != nil {
			return fmt.Errorf("window aggregate snapshot: %w", err)
		}
		if old, ok := w.windows[hdr[0]]; ok {
			old.agg.Reset()
		}
		w.windows[hdr[0]] = &openWindow{start: hdr[0], end: hdr[1], agg: agg}
	}
	return nil
}

// StateDescription is the keys besides the window, the window, the
// aggregates and the output mode.
func (w *WindowAggregate) StateDescription() StateDescription {
	keys := make([]expr.Expr, 0, len(w.groupBy))
	for i, g := range w.groupBy {
		if i != w.window {
			keys = append(keys, g)
		}
	}
	return StateDescription{Kind: "window_aggregate", Props: []StateProperty{
		{Name: "group keys", Value: describeExprs(keys)},
		{Name: "window", Value: w.windowKeyString()},
		{Name: "aggregates", Value: describeAggs(w.aggs)},
		{Name: "output mode", Value: w.mode.String()},
	}}
}

func (w *WindowAggregate) String() string {
	keys := make([]string, len(w.groupBy))
	for i, g := range w.groupBy {
		keys[i] = g.String()
	}
	aggs := make([]string, len(w.aggs))
	for i, a := range w.aggs {
		aggs[i] = a.String()
	}
	return fmt.Sprintf("WindowAggregate %s window=%s keys=%v aggs=%v", w.mode, w.windowKeyString(), keys, aggs)
}

// StateRows is the number of groups over every open window.
func (w *WindowAggregate) StateRows() int64 {
	var n int64
	for _, ow := range w.windows {
		n += ow.agg.StateRows()
	}
	return n
}
