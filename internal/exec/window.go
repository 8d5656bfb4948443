package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
)

// Window computes window functions (batch queries only). Its input goes
// through a Sort by the partition keys, then the order keys, which
// spills under a memory budget; the sorted rows are then read one
// partition at a time: each partition is buffered whole, its functions
// computed, and its rows sent out with one column per function after
// the input's.
//
// Partition keys compare NULL equal to NULL (NULLs form one partition).
// A partition that alone outgrows the budget fails the query.
type Window struct {
	in, schema *arrow.Schema
	part       []expr.Expr
	order      []SortKey
	funcs      []*expr.WindowFunc
	frames     []expr.WindowFrame
	sort       *Sort

	budget  *MemoryBudget
	held    int64
	pending []arrow.RecordBatch // the current partition's rows so far
	lastKey []arrow.Array       // its partition key, one row each

	// done holds computed partitions until they make a batch of
	// emitBatchRows: a query with many small partitions (W1's 20,000
	// clients, ~175 rows each) would otherwise send as many small
	// batches, and every operator after the window pays per batch.
	done     []arrow.RecordBatch
	doneRows int64

	// everyWatermark computes the buffered partitions at every watermark,
	// not only at the end: a stream's window over a windowed aggregation,
	// whose input holds whole event-time windows at each watermark.
	everyWatermark bool
}

var (
	_ Operator   = (*Window)(nil)
	_ MemoryUser = (*Window)(nil)
)

// NewWindow computes funcs (each with its frame) over the rows of in
// partitioned by part and ordered by order; names are the function
// columns' names.
func NewWindow(in *arrow.Schema, part []expr.Expr, order []SortKey, funcs []*expr.WindowFunc, frames []expr.WindowFrame, names []string) (*Window, error) {
	if len(frames) != len(funcs) || len(names) != len(funcs) {
		return nil, fmt.Errorf("internal error: window has %d functions, %d frames and %d names", len(funcs), len(frames), len(names))
	}
	fs := append([]arrow.Field{}, in.Fields()...)
	for i, f := range funcs {
		fs = append(fs, arrow.Field{Name: names[i], Type: f.Type(), Nullable: true})
	}
	keys := make([]SortKey, 0, len(part)+len(order))
	for _, p := range part {
		keys = append(keys, SortKey{Expr: p, NullsFirst: true})
	}
	keys = append(keys, order...)
	return &Window{in: in, schema: arrow.NewSchema(fs, nil), part: part, order: order, funcs: funcs, frames: frames,
		sort: NewSort(in, keys)}, nil
}

// SetMemoryBudget lets the sort spill and bounds the partition buffer.
func (w *Window) SetMemoryBudget(b *MemoryBudget) {
	w.budget = b
	w.sort.SetMemoryBudget(b)
}

// Schema is the input's columns then one per function.
func (w *Window) Schema() *arrow.Schema { return w.schema }

// Process hands the batch to the sort.
func (w *Window) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	return w.sort.Process(ctx, batch, out)
}

// ComputeEveryWatermark makes the window compute what it holds at every
// watermark. Only for input whose partitions are complete at each
// watermark (the physical planner checks that in streams).
func (w *Window) ComputeEveryWatermark() { w.everyWatermark = true }

// OnWatermark runs the partitions at WatermarkEnd (at every watermark
// after ComputeEveryWatermark), then forwards t.
func (w *Window) OnWatermark(ctx context.Context, t int64, out Output) error {
	if t != WatermarkEnd && !w.everyWatermark {
		return out.Send(ctx, Message{Watermark: t})
	}
	defer w.reset()
	sorted := OutputFunc(func(ctx context.Context, m Message) error {
		if m.IsWatermark() {
			if err := w.flush(ctx, out); err != nil {
				return err
			}
			if err := w.sendDone(ctx, out); err != nil {
				return err
			}
			return out.Send(ctx, Message{Watermark: t})
		}
		return w.consume(ctx, m.Batch, out)
	})
	return w.sort.OnWatermark(ctx, WatermarkEnd, sorted)
}

// EndEpoch does nothing: rows wait for the end watermark.
func (w *Window) EndEpoch(ctx context.Context, out Output) error { return nil }

func (w *Window) reset() {
	releaseBatches(w.done)
	w.done, w.doneRows = nil, 0
	releaseBatches(w.pending)
	releaseAll(w.lastKey)
	w.pending, w.lastKey = nil, nil
	w.budget.Release(w.held)
	w.held = 0
}

// consume splits a sorted batch at partition boundaries.
func (w *Window) consume(ctx context.Context, b arrow.RecordBatch, out Output) error {
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	keys, err := evalAll(ctx, w.part, b)
	if err != nil {
		return fmt.Errorf("window: partition keys: %w", err)
	}
	defer releaseAll(keys)
	same, err := rowsEqual(keys)
	if err != nil {
		return fmt.Errorf("window: %w", err)
	}
	start := 0
	if len(w.pending) > 0 {
		eq, err := w.continues(keys)
		if err != nil {
			return err
		}
		if !eq {
			if err := w.flush(ctx, out); err != nil {
				return err
			}
		}
	}
	for i := 1; i <= n; i++ {
		if i < n && same(i-1, i) {
			continue
		}
		if err := w.hold(b.NewSlice(int64(start), int64(i))); err != nil {
			return err
		}
		if i < n {
			if err := w.flush(ctx, out); err != nil {
				return err
			}
		}
		start = i
	}
	releaseAll(w.lastKey)
	w.lastKey = make([]arrow.Array, len(keys))
	for c, k := range keys {
		w.lastKey[c] = array.NewSlice(k, int64(n-1), int64(n))
	}
	return nil
}

// continues reports whether the first row of keys is in the pending
// partition.
func (w *Window) continues(keys []arrow.Array) (bool, error) {
	pair := make([]arrow.Array, len(keys))
	defer releaseAll(pair)
	for c, k := range keys {
		first := array.NewSlice(k, 0, 1)
		p, err := array.Concatenate([]arrow.Array{w.lastKey[c], first}, memAlloc)
		first.Release()
		if err != nil {
			return false, fmt.Errorf("window: %w", err)
		}
		pair[c] = p
	}
	same, err := rowsEqual(pair)
	if err != nil {
		return false, fmt.Errorf("window: %w", err)
	}
	return same(0, 1), nil
}

// hold adds a slice (owned) to the pending partition.
func (w *Window) hold(s arrow.RecordBatch) error {
	n := rowBytes(s)
	if err := w.budget.Reserve(n); err != nil {
		s.Release()
		return fmt.Errorf("window: one partition holds more than the memory limit of %d bytes; "+
			"raise memory_limit or partition the window by more keys: %w", w.budget.Limit(), err)
	}
	w.held += n
	w.pending = append(w.pending, s)
	return nil
}

// flush computes and sends the pending partition.
func (w *Window) flush(ctx context.Context, out Output) error {
	if len(w.pending) == 0 {
		return nil
	}
	rows, err := concatRows(w.in, w.pending)
	releaseBatches(w.pending)
	w.pending = nil
	if err != nil {
		return fmt.Errorf("window: %w", err)
	}
	defer rows.Release()
	res, err := w.partition(ctx, rows)
	w.budget.Release(w.held)
	w.held = 0
	if err != nil {
		return err
	}
	if res.NumRows() >= emitBatchRows {
		defer res.Release()
		if err := w.sendDone(ctx, out); err != nil {
			return err
		}
		return sendSliced(ctx, res, out)
	}
	w.done = append(w.done, res)
	w.doneRows += res.NumRows()
	if w.doneRows >= emitBatchRows {
		return w.sendDone(ctx, out)
	}
	return nil
}

// sendDone sends the computed partitions held back, as one batch.
func (w *Window) sendDone(ctx context.Context, out Output) error {
	if len(w.done) == 0 {
		return nil
	}
	all, err := concatRows(w.schema, w.done)
	releaseBatches(w.done)
	w.done, w.doneRows = nil, 0
	if err != nil {
		return fmt.Errorf("window: %w", err)
	}
	defer all.Release()
	return sendSliced(ctx, all, out)
}

// partition computes every function over one partition's rows.
func (w *Window) partition(ctx context.Context, rows arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(rows.NumRows())
	peerStart, peerEnd, err := peerGroups(ctx, w.order, rows)
	if err != nil {
		return nil, fmt.Errorf("window: order keys: %w", err)
	}
	cols := append([]arrow.Array{}, rows.Columns()...)
	var made []arrow.Array
	defer func() { releaseAll(made) }()
	var orderKey arrow.Array
	if len(w.order) == 1 {
		if orderKey, err = w.order[0].Expr.Eval(ctx, rows); err != nil {
			return nil, fmt.Errorf("window: order keys: %w", err)
		}
		defer orderKey.Release()
	}
	for i, f := range w.funcs {
		args, err := evalAll(ctx, f.Args, rows)
		if err != nil {
			return nil, fmt.Errorf("window: %s: %w", f, err)
		}
		p := &expr.WindowPartition{N: n, Args: args, PeerStart: peerStart, PeerEnd: peerEnd}
		if f.UsesFrame() {
			var desc bool
			if len(w.order) == 1 {
				desc = w.order[0].Desc
			}
			if p.FrameStart, p.FrameEnd, err = frameBounds(w.frames[i], p, orderKey, desc); err != nil {
				releaseAll(args)
				return nil, fmt.Errorf("window: %s: %w", f, err)
			}
		}
		var col arrow.Array
		if f.Agg != nil {
			col, err = aggregateFrames(ctx, f, w.frames[i], p)
		} else {
			col, err = f.Eval(ctx, p)
		}
		releaseAll(args)
		if err != nil {
			return nil, fmt.Errorf("window: %s: %w", f, err)
		}
		made = append(made, col)
		cols = append(cols, col)
	}
	return array.NewRecordBatch(w.schema, cols, int64(n)), nil
}

// peerGroups gives each row's peer group [start, end): the rows equal to
// it on the order keys (all rows when there are none).
func peerGroups(ctx context.Context, order []SortKey, rows arrow.RecordBatch) ([]int, []int, error) {
	n := int(rows.NumRows())
	start, end := make([]int, n), make([]int, n)
	exprs := make([]expr.Expr, len(order))
	for i, k := range order {
		exprs[i] = k.Expr
	}
	keys, err := evalAll(ctx, exprs, rows)
	if err != nil {
		return nil, nil, err
	}
	defer releaseAll(keys)
	same, err := rowsEqual(keys)
	if err != nil {
		return nil, nil, err
	}
	s := 0
	for i := 0; i < n; i++ {
		if i > 0 && !same(i-1, i) {
			s = i
		}
		start[i] = s
	}
	e := n
	for i := n - 1; i >= 0; i-- {
		if i < n-1 && !same(i, i+1) {
			e = i + 1
		}
		end[i] = e
	}
	return start, end, nil
}

// rowsEqual compares rows of the same arrays on every column, NULL equal
// to NULL.
func rowsEqual(cols []arrow.Array) (func(i, j int) bool, error) {
	cmps := make([]rowCmp, len(cols))
	for c, a := range cols {
		cmp, err := columnCmp(a, false, true)
		if err != nil {
			return nil, err
		}
		cmps[c] = cmp
	}
	return func(i, j int) bool {
		for _, cmp := range cmps {
			if cmp(i, j) != 0 {
				return false
			}
		}
		return true
	}, nil
}

// String is the EXPLAIN line.
func (w *Window) String() string {
	parts := make([]string, len(w.part))
	for i, p := range w.part {
		parts[i] = p.String()
	}
	fs := make([]string, len(w.funcs))
	for i, f := range w.funcs {
		fs[i] = f.String()
		if f.UsesFrame() {
			fs[i] += " " + w.frames[i].String()
		}
	}
	return fmt.Sprintf("Window partition=[%s] order=%s funcs=[%s]", strings.Join(parts, ", "), sortKeysString(w.order), strings.Join(fs, ", "))
}
