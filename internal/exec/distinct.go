package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
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
}

var (
	_ Operator = (*Distinct)(nil)
	_ Stateful = (*Distinct)(nil)
)

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
		d.table.strs = make(map[string]uint32)
	}
	releaseBatches(d.seen)
	d.seen = nil
}

// Schema is the input schema.
func (d *Distinct) Schema() *arrow.Schema { return d.schema }

// Process sends the batch's rows not seen before, in order.
func (d *Distinct) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	n := int(batch.NumRows())
	if n == 0 {
		return nil
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
	return out.Send(ctx, Message{Batch: res})
}

// Snapshot writes the distinct rows seen so far as Arrow IPC.
func (d *Distinct) Snapshot(w io.Writer) error {
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
