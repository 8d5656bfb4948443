package exec

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
)

// HashAggregate groups rows by its key expressions and folds them into
// one accumulator per aggregate. Each distinct key gets a dense group id
// (keyTable); the first row of each group donates its key values. With no
// keys there is one global group, which yields a row even for no input
// (SELECT count(*) FROM empty gives 0).
//
// Output: the key columns, then one column per aggregate. Groups come out
// in first-seen order when the watermark reaches WatermarkEnd; streaming
// callers use EmitAll directly.
type HashAggregate struct {
	groupBy []expr.Expr
	aggs    []*expr.Aggregate
	schema  *arrow.Schema

	table *keyTable
	keys  [][]arrow.Array // per key column: chunks of first-seen key values
	accs  []expr.Accumulator

	ids   []uint32
	fresh []int
	// dictKey is the input column of the single STRING/BINARY key when
	// the key is that bare column and no aggregate reads it, else -1:
	// then the column may come as a dictionary array (DictionaryPartials).
	dictKey int
	// enc, when set, is a key encoder shared with other aggregates that
	// never run at the same time (see keyTable.shared).
	enc *keyEncoder

	budget  *MemoryBudget
	noSpill bool   // streaming: over budget is an error...
	stateID string // ...a StateTooLargeError naming this id
	hint    string
	held    int64 // bytes reserved from budget for the groups
	spill   *aggSpill
	// first is each group's first row in input order, kept when batches
	// arrive out of order (ProcessAt) so groups still come out in
	// first-seen input order; nil under in-order delivery.
	first []Pos
	// touched marks the groups changed since the last EmitTouched, when
	// tracking (update mode; hash_aggregate_touched.go).
	touched  []bool
	tracking bool
	// anyOrderOut: the consumer does not depend on the groups' order
	// (EmitInAnyOrder).
	anyOrderOut bool
}

var (
	_ Operator   = (*HashAggregate)(nil)
	_ Stateful   = (*HashAggregate)(nil)
	_ MemoryUser = (*HashAggregate)(nil)

	_ OrderInsensitive = (*HashAggregate)(nil)
)

// SetMemoryBudget makes the aggregate spill its groups to disk, hash
// partitioned, when they outgrow b; they are merged back one partition at
// a time at the end.
func (h *HashAggregate) SetMemoryBudget(b *MemoryBudget) { h.budget = b }

// NewHashAggregate groups by groupBy and computes aggs. names names the
// output columns: one per key then one per aggregate; when it only covers
// the keys, aggregate columns are named after the aggregate's SQL text.
func NewHashAggregate(groupBy []expr.Expr, names []string, aggs []*expr.Aggregate) (*HashAggregate, error) {
	if len(names) != len(groupBy) && len(names) != len(groupBy)+len(aggs) {
		return nil, fmt.Errorf("hash aggregate: %d names for %d keys and %d aggregates", len(names), len(groupBy), len(aggs))
	}
	fields := make([]arrow.Field, 0, len(groupBy)+len(aggs))
	for i, g := range groupBy {
		fields = append(fields, arrow.Field{Name: names[i], Type: g.Type(), Nullable: true})
	}
	for i, a := range aggs {
		name := a.String()
		if len(names) > len(groupBy) {
			name = names[len(groupBy)+i]
		}
		fields = append(fields, arrow.Field{Name: name, Type: a.Type(), Nullable: true})
	}
	h := &HashAggregate{groupBy: groupBy, aggs: aggs, schema: arrow.NewSchema(fields, nil), dictKey: dictKeyColumn(groupBy, aggs)}
	h.Reset()
	return h, nil
}

// Schema is the key columns then the aggregate columns.
func (h *HashAggregate) Schema() *arrow.Schema { return h.schema }

// NumGroups is the number of groups held.
func (h *HashAggregate) NumGroups() int { return h.table.size() }

// Reset drops every group.
func (h *HashAggregate) Reset() {
	h.release()
	h.budget.Release(h.held)
	h.held = 0
	types := make([]arrow.DataType, len(h.groupBy))
	for i, g := range h.groupBy {
		types[i] = g.Type()
	}
	h.first = h.first[:0]
	h.touched = h.touched[:0]
	h.table = newKeyTable(types)
	h.table.shared = h.enc
	h.keys = make([][]arrow.Array, len(h.groupBy))
	h.accs = make([]expr.Accumulator, len(h.aggs))
	for i, a := range h.aggs {
		h.accs[i] = a.NewAccumulator()
	}
}

func (h *HashAggregate) release() {
	for _, chunks := range h.keys {
		for _, c := range chunks {
			c.Release()
		}
	}
	h.keys = nil
}

// Process folds the batch into the groups.
func (h *HashAggregate) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	return h.process(ctx, batch, -1)
}

// process folds batch in; pos >= 0 is its input position (ProcessAt).
func (h *HashAggregate) process(ctx context.Context, batch arrow.RecordBatch, pos Pos) error {
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	var keyCols []arrow.Array
	if hasDictionaries(batch) {
		plain, key, err := h.splitDictionaries(batch)
		if err != nil {
			return fmt.Errorf("hash aggregate: %w", err)
		}
		defer plain.Release()
		batch, keyCols = plain, key
	}
	if keyCols == nil {
		var err error
		if keyCols, err = evalAll(ctx, h.groupBy, batch); err != nil {
			return fmt.Errorf("hash aggregate: grouping: %w", err)
		}
	}
	defer releaseAll(keyCols)
	if cap(h.ids) < n {
		h.ids = make([]uint32, n)
	}
	ids := h.ids[:n]
	before := h.table.size()
	h.fresh = h.table.assign(keyCols, n, ids, h.fresh)
	kept := h.keptChunks()
	var grown int64
	if len(h.fresh) > 0 && len(keyCols) > 0 {
		if err := h.keepKeys(ctx, keyCols, h.fresh, n); err != nil {
			return fmt.Errorf("hash aggregate: keeping keys: %w", err)
		}
		if h.budget != nil {
			// Key bytes count twice: the kept arrays and the table's copy.
			for c := range h.keys {
				grown += 2 * arraySize(h.keys[c][len(h.keys[c])-1])
			}
			grown += int64(len(h.fresh)) * h.groupBytes()
		}
	}
	if err := h.update(ctx, batch, ids); err != nil {
		return h.dropBadRows(ctx, batch, pos, err, keyCols, before, kept)
	}
	h.touch(ids)
	if pos >= 0 && len(h.groupBy) > 0 {
		// Before accounting: a spill would renumber the groups.
		h.noteFirst(ids, pos)
	}
	if grown > 0 {
		return h.account(ctx, grown)
	}
	return nil
}

// keepKeys stores the key values of the rows that started new groups.
func (h *HashAggregate) keepKeys(ctx context.Context, cols []arrow.Array, rows []int, n int) error {
	if len(rows) == n {
		// Every row is a new group (rows is 0..n-1): keep the columns.
		for c, col := range cols {
			if d, ok := col.(*array.Dictionary); ok {
				v, err := dictValues(d, nil)
				if err != nil {
					return err
				}
				h.keys[c] = append(h.keys[c], v)
				continue
			}
			col.Retain()
			h.keys[c] = append(h.keys[c], col)
		}
		return nil
	}
	for c, col := range cols {
		if d, ok := col.(*array.Dictionary); ok {
			v, err := dictValues(d, rows)
			if err != nil {
				return err
			}
			h.keys[c] = append(h.keys[c], v)
			continue
		}
		taken, err := gather(ctx, col, rows)
		if err != nil {
			return err
		}
		h.keys[c] = append(h.keys[c], taken)
	}
	return nil
}

// OnWatermark emits every group at WatermarkEnd, then forwards t.
func (h *HashAggregate) OnWatermark(ctx context.Context, t int64, out Output) error {
	if t == WatermarkEnd && h.spill != nil {
		if err := h.emitSpilled(ctx, out); err != nil {
			return err
		}
		h.Reset()
	} else if t == WatermarkEnd {
		if err := h.EmitAll(ctx, out); err != nil {
			return err
		}
		h.Reset()
	}
	return out.Send(ctx, Message{Watermark: t})
}

// EndEpoch does nothing: groups live until emitted.
func (h *HashAggregate) EndEpoch(ctx context.Context, out Output) error { return nil }

// EmitAll sends one row per group (one row for no keys) without dropping
// state.
func (h *HashAggregate) EmitAll(ctx context.Context, out Output) error {
	b, err := h.result()
	if err != nil {
		return fmt.Errorf("hash aggregate: %w", err)
	}
	defer b.Release()
	return sendSliced(ctx, b, out)
}

func (h *HashAggregate) result() (arrow.RecordBatch, error) {
	numGroups := h.table.size()
	if len(h.groupBy) == 0 {
		numGroups = 1
	}
	cols := make([]arrow.Array, 0, len(h.groupBy)+len(h.aggs))
	fail := func(err error) (arrow.RecordBatch, error) {
		releaseAll(cols)
		return nil, err
	}
	order := h.inputOrder()
	for c, g := range h.groupBy {
		col, err := concatArrays(g.Type(), h.keys[c])
		if err != nil {
			return fail(err)
		}
		// Compact the chunks so later emits and snapshots reuse the work.
		for _, k := range h.keys[c] {
			k.Release()
		}
		col.Retain()
		h.keys[c] = []arrow.Array{col}
		cols = append(cols, col)
	}
	for i, a := range h.aggs {
		res, err := h.accs[i].Result(numGroups)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", a, err))
		}
		if res.Len() != numGroups {
			res.Release()
			return fail(fmt.Errorf("%s: %d results for %d groups", a, res.Len(), numGroups))
		}
		cols = append(cols, res)
	}
	if order != nil {
		for i, col := range cols {
			taken, err := gather(context.Background(), col, order)
			if err != nil {
				return fail(err)
			}
			col.Release()
			cols[i] = taken
		}
	}
	b := array.NewRecordBatch(h.schema, cols, int64(numGroups))
	releaseAll(cols)
	return b, nil
}

// Snapshot writes the group count, the keys as Arrow IPC, then each
// accumulator's own snapshot.
func (h *HashAggregate) Snapshot(w io.Writer) error {
	if h.spill != nil {
		return fmt.Errorf("hash aggregate snapshot: groups spilled to disk cannot be checkpointed")
	}
	if err := writeUint64(w, uint64(h.table.size())); err != nil {
		return fmt.Errorf("hash aggregate snapshot: %w", err)
	}
	if len(h.groupBy) > 0 {
		fields := h.schema.Fields()[:len(h.groupBy)]
		ks := arrow.NewSchema(fields, nil)
		cols := make([]arrow.Array, len(h.groupBy))
		for c, g := range h.groupBy {
			col, err := concatArrays(g.Type(), h.keys[c])
			if err != nil {
				releaseAll(cols[:c])
				return fmt.Errorf("hash aggregate snapshot: %w", err)
			}
			cols[c] = col
		}
		kb := array.NewRecordBatch(ks, cols, int64(h.table.size()))
		releaseAll(cols)
		err := writeRows(w, ks, []arrow.RecordBatch{kb})
		kb.Release()
		if err != nil {
			return fmt.Errorf("hash aggregate snapshot: %w", err)
		}
	}
	for i, acc := range h.accs {
		var buf bytes.Buffer
		if err := acc.Snapshot(&buf); err != nil {
			return fmt.Errorf("hash aggregate snapshot: %s: %w", h.aggs[i], err)
		}
		if err := writeSection(w, buf.Bytes()); err != nil {
			return fmt.Errorf("hash aggregate snapshot: %w", err)
		}
	}
	return nil
}

// StateDescription is the group keys and the aggregates.
func (h *HashAggregate) StateDescription() StateDescription {
	return StateDescription{Kind: "hash_aggregate", Props: []StateProperty{
		{Name: "group keys", Value: describeExprs(h.groupBy)},
		{Name: "aggregates", Value: describeAggs(h.aggs)},
	}}
}

// Restore replaces the state with what Snapshot wrote.
func (h *HashAggregate) Restore(r io.Reader) error {
	h.Reset()
	n, err := readUint64(r)
	if err != nil {
		return fmt.Errorf("hash aggregate restore: %w", err)
	}
	if len(h.groupBy) > 0 {
		_, batches, err := readRows(r)
		if err != nil {
			return fmt.Errorf("hash aggregate restore: %w", err)
		}
		for _, b := range batches {
			if b.NumCols() != int64(len(h.groupBy)) {
				releaseBatches(batches)
				return fmt.Errorf("hash aggregate restore: snapshot has %d key columns, want %d", b.NumCols(), len(h.groupBy))
			}
			rows := int(b.NumRows())
			ids := make([]uint32, rows)
			h.fresh = h.table.assign(b.Columns(), rows, ids, h.fresh)
			for c := range h.groupBy {
				col := b.Column(c)
				col.Retain()
				h.keys[c] = append(h.keys[c], col)
			}
		}
		releaseBatches(batches)
		if uint64(h.table.size()) != n {
			return fmt.Errorf("hash aggregate restore: %d keys for %d groups", h.table.size(), n)
		}
		if h.budget != nil {
			// Restored state counts; outgrowing the budget shows at the
			// next batch.
			est := int64(n) * h.groupBytes()
			for _, chunks := range h.keys {
				for _, c := range chunks {
					est += 2 * arraySize(c)
				}
			}
			h.budget.force(est)
			h.held += est
		}
	} else if n > 0 {
		h.table.n = 1
	}
	for i, acc := range h.accs {
		p, err := readSection(r)
		if err != nil {
			return fmt.Errorf("hash aggregate restore: %s: %w", h.aggs[i], err)
		}
		if err := acc.Restore(bytes.NewReader(p)); err != nil {
			return fmt.Errorf("hash aggregate restore: %s: %w", h.aggs[i], err)
		}
	}
	return nil
}

// String is the EXPLAIN line: HashAggregate keys=[status] aggs=[count(*)].
func (h *HashAggregate) String() string {
	keys := make([]string, len(h.groupBy))
	for i, g := range h.groupBy {
		keys[i] = g.String()
	}
	aggs := make([]string, len(h.aggs))
	for i, a := range h.aggs {
		aggs[i] = a.String()
	}
	return "HashAggregate keys=[" + strings.Join(keys, ", ") + "] aggs=[" + strings.Join(aggs, ", ") + "]"
}

// evalAll evaluates es over batch; the caller releases the arrays.
func evalAll(ctx context.Context, es []expr.Expr, batch arrow.RecordBatch) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(es))
	for i, e := range es {
		a, err := e.Eval(ctx, batch)
		if err != nil {
			releaseAll(out[:i])
			return nil, fmt.Errorf("evaluating %s: %w", e, err)
		}
		out[i] = a
	}
	return out, nil
}

func releaseAll(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}

func releaseBatches(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// indexArray turns row numbers into an Int32 array for compute.Take.
func indexArray(rows []int) arrow.Array {
	b := array.NewInt32Builder(memAlloc)
	defer b.Release()
	b.Reserve(len(rows))
	for _, r := range rows {
		b.UnsafeAppend(int32(r))
	}
	return b.NewArray()
}

// sendSliced sends b in slices of at most emitBatchRows rows.
func sendSliced(ctx context.Context, b arrow.RecordBatch, out Output) error {
	n := b.NumRows()
	if n <= emitBatchRows {
		if n == 0 {
			return nil
		}
		return out.Send(ctx, Message{Batch: b})
	}
	for lo := int64(0); lo < n; lo += emitBatchRows {
		s := b.NewSlice(lo, min(n, lo+emitBatchRows))
		err := out.Send(ctx, Message{Batch: s})
		s.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// StateRows is the number of groups held.
func (h *HashAggregate) StateRows() int64 { return int64(h.table.size()) }
