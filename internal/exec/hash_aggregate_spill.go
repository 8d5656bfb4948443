package exec

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
)

// spillPartitions is how many hash partitions a spilling aggregate
// writes: at the end one partition's groups are merged in memory at a
// time, so this divides the memory the merge needs.
const spillPartitions = 32

// groupBytes estimates the heap one group costs besides its key values:
// the hash table entry and the accumulators' per-group slots.
func (h *HashAggregate) groupBytes() int64 { return 64 + 16*int64(len(h.aggs)) }

// account reserves the growth of one Process call. Over budget, a batch
// aggregate spills its groups to disk; a streaming one (noSpill) fails.
func (h *HashAggregate) account(ctx context.Context, delta int64) error {
	if h.budget.Reserve(delta) == nil {
		h.held += delta
		return nil
	}
	if h.noSpill {
		return &StateTooLargeError{ID: h.stateID, Held: h.held + delta, Limit: h.budget.Limit(), MemoryLimit: h.budget.MemoryLimit(), Hint: h.hint}
	}
	if len(h.groupBy) == 0 {
		return fmt.Errorf("hash aggregate: %w", ErrOverBudget)
	}
	for _, a := range h.aggs {
		if a.Distinct {
			return fmt.Errorf("hash aggregate: %s holds %s, over the memory limit of %s, and DISTINCT aggregates cannot spill to disk: %w",
				a, FormatBytes(h.held+delta), FormatBytes(h.budget.Limit()), ErrOverBudget)
		}
	}
	h.budget.force(delta)
	h.held += delta
	return h.spillGroups(ctx)
}

// aggSpill is a spilling aggregate's runs: each spill appends to every
// partition file one section of that partition's groups (keys with their
// first-seen sequence number, then accumulator states).
type aggSpill struct {
	seed  maphash.Seed
	files [spillPartitions]*spillFile
	runs  int
	// base is the groups spilled before: a group's sequence number is
	// base + its id in the run, so ordering by the smallest sequence
	// number of a key is first-seen order over the whole input.
	base int64
	enc  keyEncoder
}

func (s *aggSpill) remove() {
	for i, f := range s.files {
		f.remove()
		s.files[i] = nil
	}
}

// seqField names the sequence column spilled runs carry.
const seqField = "__seq"

// spillGroups writes every group to the partition files and drops them.
func (h *HashAggregate) spillGroups(ctx context.Context) error {
	if h.spill == nil {
		h.spill = &aggSpill{seed: maphash.MakeSeed()}
	}
	sp := h.spill
	n := h.table.size()
	if n == 0 {
		return nil
	}
	keyCols := make([]arrow.Array, len(h.groupBy))
	for c, g := range h.groupBy {
		col, err := concatArrays(g.Type(), h.keys[c])
		if err != nil {
			releaseAll(keyCols)
			return fmt.Errorf("hash aggregate: spilling: %w", err)
		}
		keyCols[c] = col
	}
	defer releaseAll(keyCols)
	part := sp.partitionOf(keyCols, n)
	// Per partition: its groups (ascending, so in first-seen order).
	var members [spillPartitions][]int
	for g, p := range part {
		members[p] = append(members[p], g)
	}
	// Per key column: its values split by partition, in one pass where
	// the column allows (splitStrings), else nil and gathered later.
	split := make([][]arrow.Array, len(keyCols))
	defer func() {
		for _, cs := range split {
			releaseAll(cs)
		}
	}()
	for c, col := range keyCols {
		if v, ok := col.(*array.String); ok && v.NullN() == 0 {
			split[c] = splitStrings(v, part, &members)
		}
	}
	for p := range members {
		if len(members[p]) == 0 {
			continue
		}
		accs, err := h.partitionStates(part, uint8(p), members[p])
		if err != nil {
			return err
		}
		cols := make([]arrow.Array, len(keyCols))
		for c, col := range keyCols {
			if split[c] != nil {
				cols[c] = split[c][p]
				continue
			}
			if cols[c], err = gather(ctx, col, members[p]); err != nil {
				releaseAll(cols[:c])
				return fmt.Errorf("hash aggregate: spilling: %w", err)
			}
			defer cols[c].Release()
		}
		if err := h.spillPartition(ctx, p, cols, members[p], accs); err != nil {
			return err
		}
	}
	sp.base += int64(n)
	sp.runs++
	h.Reset()
	h.table.presize(n)
	return nil
}

func (s *aggSpill) partitionOf(cols []arrow.Array, n int) []uint8 {
	keys := s.enc.encode(cols, n)
	out := make([]uint8, n)
	for i, k := range keys {
		out[i] = uint8(maphash.Bytes(s.seed, k) % spillPartitions)
	}
	return out
}

// partitionStates is each aggregate's states of one partition's groups
// (members, of partition p in part): group 0 empty, then the members in
// order. Accumulators that can Take copy just those; others merge every
// group in, the other partitions' into group 0, which mergePartition
// drops.
func (h *HashAggregate) partitionStates(part []uint8, p uint8, members []int) ([]expr.Accumulator, error) {
	out := make([]expr.Accumulator, len(h.aggs))
	var take []int
	var mapping []uint32
	for i, a := range h.aggs {
		if t, ok := h.accs[i].(functions.Taker); ok {
			if take == nil {
				take = append(make([]int, 0, len(members)+1), -1)
				take = append(take, members...)
			}
			out[i] = t.Take(take)
			continue
		}
		if mapping == nil {
			mapping = make([]uint32, len(part))
			for j, g := range members {
				mapping[g] = uint32(j + 1)
			}
		}
		acc := a.NewAccumulator()
		if err := acc.Merge(h.accs[i], mapping); err != nil {
			return nil, fmt.Errorf("hash aggregate: spilling %s: %w", a, err)
		}
		out[i] = acc
	}
	return out, nil
}

// spillPartition appends partition p's groups to its file: keys, the
// partition's key values (groups' rows of every key column), with their
// sequence numbers, then accs' states.
func (h *HashAggregate) spillPartition(ctx context.Context, p int, keys []arrow.Array, groups []int, accs []expr.Accumulator) error {
	sp := h.spill
	if sp.files[p] == nil {
		f, err := newSpillFile(h.budget)
		if err != nil {
			return fmt.Errorf("hash aggregate: %w", err)
		}
		sp.files[p] = f
	}
	schema := h.spillSchema()
	cols := make([]arrow.Array, 0, len(keys)+1)
	for _, k := range keys {
		k.Retain()
		cols = append(cols, k)
	}
	defer func() { releaseAll(cols) }()
	sb := array.NewInt64Builder(memAlloc)
	sb.Reserve(len(groups))
	for _, g := range groups {
		sb.UnsafeAppend(h.seqOf(g))
	}
	cols = append(cols, sb.NewArray())
	sb.Release()
	kb := array.NewRecordBatch(schema, cols, int64(len(groups)))
	err := writeSpillRows(sp.files[p], schema, []arrow.RecordBatch{kb})
	kb.Release()
	if err != nil {
		return fmt.Errorf("hash aggregate: spilling: %w", err)
	}
	for i, a := range h.aggs {
		acc := accs[i]
		var buf bytes.Buffer
		if err := acc.Snapshot(&buf); err != nil {
			return fmt.Errorf("hash aggregate: spilling %s: %w", a, err)
		}
		if err := writeSection(sp.files[p], buf.Bytes()); err != nil {
			return fmt.Errorf("hash aggregate: spilling: %w", err)
		}
	}
	return nil
}

// spillSchema is the key columns then the sequence number.
func (h *HashAggregate) spillSchema() *arrow.Schema {
	fields := append([]arrow.Field{}, h.schema.Fields()[:len(h.groupBy)]...)
	fields = append(fields, arrow.Field{Name: seqField, Type: arrow.PrimitiveTypes.Int64})
	return arrow.NewSchema(fields, nil)
}

// emitSpilled spills what is left, merges each partition's runs into its
// final groups (a run sorted by sequence number), then merges the
// partitions by sequence number so the groups come out in the order an
// in-memory run gives.
func (h *HashAggregate) emitSpilled(ctx context.Context, out Output) error {
	sp := h.spill
	defer func() {
		sp.remove()
		h.spill = nil
	}()
	if err := h.spillGroups(ctx); err != nil {
		return err
	}
	outFields := append(append([]arrow.Field{}, h.schema.Fields()...), arrow.Field{Name: seqField, Type: arrow.PrimitiveTypes.Int64})
	outSchema := arrow.NewSchema(outFields, nil)
	var finals []*spillRun
	defer func() { removeRuns(finals) }()
	for p, f := range sp.files {
		if f == nil {
			continue
		}
		b, err := h.mergePartition(ctx, f, outSchema)
		if err != nil {
			return fmt.Errorf("hash aggregate: merging spilled partition %d: %w", p, err)
		}
		if h.anyOrderOut {
			res := array.NewRecordBatch(h.schema, b.Columns()[:len(outFields)-1], b.NumRows())
			b.Release()
			err := sendSliced(ctx, res, out)
			res.Release()
			if err != nil {
				return err
			}
			f.remove()
			sp.files[p] = nil
			continue
		}
		run, err := writeRun(h.budget, outSchema, []arrow.RecordBatch{b})
		b.Release()
		if err != nil {
			return fmt.Errorf("hash aggregate: %w", err)
		}
		f.remove()
		sp.files[p] = nil
		finals = append(finals, run)
	}
	seq := []SortKey{{Expr: expr.Col(len(outFields)-1, seqField, arrow.PrimitiveTypes.Int64)}}
	err := mergeRuns(ctx, outSchema, finals, seq, func(b arrow.RecordBatch) error {
		res := array.NewRecordBatch(h.schema, b.Columns()[:len(outFields)-1], b.NumRows())
		defer res.Release()
		return out.Send(ctx, Message{Batch: res})
	})
	if err != nil {
		return fmt.Errorf("hash aggregate: %w", err)
	}
	return nil
}

// mergePartition folds every run section of one partition file into one
// set of groups and returns them with their results and sequence numbers.
// A group keeps the smallest sequence number of its runs (under in-order
// delivery its first sighting's; out of order a later run may hold an
// earlier row), and the groups come back sorted by it.
func (h *HashAggregate) mergePartition(ctx context.Context, f *spillFile, outSchema *arrow.Schema) (arrow.RecordBatch, error) {
	if err := f.finish(); err != nil {
		return nil, err
	}
	rd, err := f.open()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	r := bufio.NewReaderSize(rd, spillBufSize)
	types := make([]arrow.DataType, len(h.groupBy))
	for i, g := range h.groupBy {
		types[i] = g.Type()
	}
	table := newKeyTable(types)
	accs := make([]expr.Accumulator, len(h.aggs))
	for i, a := range h.aggs {
		accs[i] = a.NewAccumulator()
	}
	var kept [][]arrow.Array // per key column: chunks
	kept = make([][]arrow.Array, len(h.groupBy))
	var seqs []int64 // per merged group
	defer func() {
		for _, cs := range kept {
			releaseAll(cs)
		}
	}()
	var fresh []int
	for {
		batches, err := readSpillRows(r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		kb, err := concatRows(h.spillSchema(), batches)
		releaseBatches(batches)
		if err != nil {
			return nil, err
		}
		n := int(kb.NumRows())
		ids := make([]uint32, n)
		fresh = table.assign(kb.Columns()[:len(h.groupBy)], n, ids, fresh)
		for c := range kept {
			t, err := gather(ctx, kb.Column(c), fresh)
			if err != nil {
				kb.Release()
				return nil, err
			}
			kept[c] = append(kept[c], t)
		}
		seqIn := kb.Column(len(h.groupBy)).(*array.Int64)
		for i, id := range ids {
			// New ids are dense in row order.
			if v := seqIn.Value(i); int(id) == len(seqs) {
				seqs = append(seqs, v)
			} else if v < seqs[id] {
				seqs[id] = v
			}
		}
		kb.Release()
		mapping := make([]uint32, n+1)
		for i, id := range ids {
			mapping[i+1] = id + 1
		}
		for i, a := range h.aggs {
			p, err := readSection(r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
			part := a.NewAccumulator()
			if err := part.Restore(bytes.NewReader(p)); err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
			if err := accs[i].Merge(part, mapping); err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
		}
	}
	numGroups := table.size()
	cols := make([]arrow.Array, 0, outSchema.NumFields())
	fail := func(err error) (arrow.RecordBatch, error) {
		releaseAll(cols)
		return nil, err
	}
	keyCols := make([]arrow.Array, len(kept))
	for c := range kept {
		col, err := concatArrays(types[c], kept[c])
		if err != nil {
			releaseAll(keyCols)
			return fail(err)
		}
		keyCols[c] = col
	}
	cols = append(cols, keyCols...)
	sb := array.NewInt64Builder(memAlloc)
	sb.AppendValues(seqs, nil)
	seqCol := sb.NewArray()
	sb.Release()
	for i, a := range h.aggs {
		// Group 0 of the merged accumulators collected other partitions'
		// groups while spilling: drop it.
		res, err := accs[i].Result(numGroups + 1)
		if err != nil {
			seqCol.Release()
			return fail(fmt.Errorf("%s: %w", a, err))
		}
		cols = append(cols, array.NewSlice(res, 1, int64(numGroups+1)))
		res.Release()
	}
	cols = append(cols, seqCol)
	if !slices.IsSorted(seqs) {
		order := sortedBy(seqs)
		for i, col := range cols {
			taken, err := gather(ctx, col, order)
			if err != nil {
				return fail(err)
			}
			col.Release()
			cols[i] = taken
		}
	}
	b := array.NewRecordBatch(outSchema, cols, int64(numGroups))
	releaseAll(cols)
	return b, nil
}
