package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
)

// Distinct passes each whole row the first time it is seen (SELECT
// DISTINCT, UNION): a hash set over all columns, NULL equal to NULL. Rows
// leave as soon as they are new, so it works on unbounded input too; the
// set of seen rows is its state.
type Distinct struct {
	Base
	schema *arrow.Schema
	table  *keyTable
	seen   []arrow.RecordBatch // the distinct rows, for snapshots
	ids    []uint32
	fresh  []int

	budget  *MemoryBudget
	held    int64
	stateID string // streaming: over budget is a StateTooLargeError
	// over takes the rows once the set outgrew the budget (batch only):
	// a spilling aggregate over every column, seeded with the rows
	// already passed, whose first emitted groups are skipped at the end.
	over    *HashAggregate
	emitted int64
}

var (
	_ Operator      = (*Distinct)(nil)
	_ Stateful      = (*Distinct)(nil)
	_ MemoryUser    = (*Distinct)(nil)
	_ StateBudgeted = (*Distinct)(nil)
)

// SetMemoryBudget bounds the set of seen rows; past it, the rest of the
// input is deduplicated on disk and its new rows come at the end.
func (d *Distinct) SetMemoryBudget(b *MemoryBudget) { d.budget = b }

// SetStateBudget makes outgrowing b an error naming id (streaming).
func (d *Distinct) SetStateBudget(id string, b *MemoryBudget) { d.budget, d.stateID = b, id }

// NewDistinct deduplicates rows of schema.
func NewDistinct(schema *arrow.Schema) *Distinct {
	d := &Distinct{schema: schema}
	d.reset()
	return d
}

func (d *Distinct) reset() {
	types := make([]arrow.DataType, d.schema.NumFields())
	for i, f := range d.schema.Fields() {
		types[i] = f.Type
	}
	d.table = newKeyTable(types)
	if len(types) == 0 {
		// Zero columns: every row equals every other; the bytes path with
		// no columns encodes them all as the empty key.
		d.table.mode = keyBytes
		d.table.sk = newStringKeyTable()
	}
	releaseBatches(d.seen)
	d.seen = nil
	d.budget.Release(d.held)
	d.held = 0
}

// Schema is the input schema.
func (d *Distinct) Schema() *arrow.Schema { return d.schema }

// Process sends the batch's rows not seen before, in order.
func (d *Distinct) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	if d.over != nil {
		return d.over.Process(ctx, batch, out)
	}
	if cap(d.ids) < n {
		d.ids = make([]uint32, n)
	}
	d.fresh = d.table.assign(batch.Columns(), n, d.ids[:n], d.fresh)
	if len(d.fresh) == 0 {
		return nil
	}
	var res arrow.RecordBatch
	if len(d.fresh) == n {
		batch.Retain()
		res = batch
	} else {
		idx := make([]int32, len(d.fresh))
		for i, r := range d.fresh {
			idx[i] = int32(r)
		}
		var err error
		if res, err = takeRows(ctx, batch, idx); err != nil {
			return fmt.Errorf("distinct: %w", err)
		}
	}
	d.seen = append(d.seen, res)
	if err := out.Send(ctx, Message{Batch: res}); err != nil {
		return err
	}
	if d.budget != nil {
		return d.account(ctx, 2*rowBytes(res)+int64(len(d.fresh))*64)
	}
	return nil
}

func (d *Distinct) account(ctx context.Context, n int64) error {
	if d.budget.Reserve(n) == nil {
		d.held += n
		return nil
	}
	if d.stateID != "" {
		return &StateTooLargeError{ID: d.stateID, Held: d.held + n, Limit: d.budget.Limit(), MemoryLimit: d.budget.MemoryLimit(), Hint: "deduplicate within a window"}
	}
	if d.schema.NumFields() == 0 {
		return fmt.Errorf("distinct: %w", ErrOverBudget)
	}
	keys := make([]expr.Expr, d.schema.NumFields())
	names := make([]string, len(keys))
	for i, f := range d.schema.Fields() {
		keys[i], names[i] = expr.Col(i, f.Name, f.Type), f.Name
	}
	over, err := NewHashAggregate(keys, names, nil)
	if err != nil {
		return fmt.Errorf("distinct: %w", err)
	}
	over.SetMemoryBudget(d.budget)
	d.emitted = int64(d.table.size())
	seen := d.seen
	d.seen = nil
	d.reset()
	for _, b := range seen {
		if err := over.Process(ctx, b, nil); err != nil {
			releaseBatches(seen)
			return fmt.Errorf("distinct: %w", err)
		}
	}
	releaseBatches(seen)
	d.over = over
	return nil
}

// OnWatermark sends, at WatermarkEnd after an overflow, the new rows the
// spilling aggregate found, then forwards t.
func (d *Distinct) OnWatermark(ctx context.Context, t int64, out Output) error {
	if t == WatermarkEnd && d.over != nil {
		over, skip := d.over, d.emitted
		d.over, d.emitted = nil, 0
		err := over.OnWatermark(ctx, t, OutputFunc(func(ctx context.Context, m Message) error {
			if m.IsWatermark() {
				return nil
			}
			b := m.Batch
			if skip >= b.NumRows() {
				skip -= b.NumRows()
				return nil
			}
			if skip > 0 {
				b = b.NewSlice(skip, b.NumRows())
				defer b.Release()
				skip = 0
			}
			res := array.NewRecordBatch(d.schema, b.Columns(), b.NumRows())
			defer res.Release()
			return out.Send(ctx, Message{Batch: res})
		}))
		over.Reset()
		if err != nil {
			return err
		}
	}
	return out.Send(ctx, Message{Watermark: t})
}

// Snapshot writes the distinct rows seen so far as Arrow IPC.
func (d *Distinct) Snapshot(w io.Writer) error {
	if d.over != nil {
		return fmt.Errorf("distinct snapshot: rows spilled to disk cannot be checkpointed")
	}
	if err := writeRows(w, d.schema, d.seen); err != nil {
		return fmt.Errorf("distinct snapshot: %w", err)
	}
	return nil
}

// StateDescription is the columns of the rows seen.
func (d *Distinct) StateDescription() StateDescription {
	return StateDescription{Kind: "distinct", Props: []StateProperty{{Name: "columns", Value: describeSchema(d.schema)}}}
}

// Restore rebuilds the set from a snapshot.
func (d *Distinct) Restore(r io.Reader) error {
	_, rows, err := readRows(r)
	if err != nil {
		return fmt.Errorf("distinct restore: %w", err)
	}
	d.reset()
	for _, b := range rows {
		n := int(b.NumRows())
		ids := make([]uint32, n)
		d.fresh = d.table.assign(b.Columns(), n, ids, d.fresh)
	}
	d.seen = rows
	return nil
}

// String is the EXPLAIN line.
func (d *Distinct) String() string { return "Distinct" }

// StateRows is the number of distinct rows seen.
func (d *Distinct) StateRows() int64 {
	var n int64
	for _, b := range d.seen {
		n += b.NumRows()
	}
	return n
}
