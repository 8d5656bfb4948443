package exec

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"sluice/internal/expr"
)

// JoinKind is the kind of a HashJoin, seen from the probe (streamed,
// left) side.
type JoinKind int

// Join kinds. Semi and Anti output only the probe columns: a probe row
// with at least one match (Semi, for IN / EXISTS), or with none (Anti,
// for NOT EXISTS). NullAwareAnti is NOT IN over one key with no
// residual: as Anti, except that an empty build side keeps every probe
// row, and otherwise a NULL probe key, or any NULL build key, keeps none
// (x NOT IN (...) is then NULL, not TRUE).
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	SemiJoin
	AntiJoin
	NullAwareAntiJoin
)

func (k JoinKind) String() string {
	return [...]string{"Inner", "Left", "Right", "Full", "Semi", "Anti", "NullAwareAnti"}[k]
}

// probeOnly reports whether the join outputs only the probe columns.
func (k JoinKind) probeOnly() bool { return k == SemiJoin || k == AntiJoin || k == NullAwareAntiJoin }

// HashJoin joins its input (the probe side) with a build side held in
// memory: a hash table from key to build rows. NULL keys never match.
// Output: the probe columns then the build columns (Semi/Anti: probe
// columns only). LEFT and FULL emit unmatched probe rows NULL-extended as
// they stream; RIGHT and FULL emit unmatched build rows at WatermarkEnd.
// With no keys it is a cross join (filtered by the residual, if any).
//
// The residual is the rest of the ON condition, evaluated on the joined
// row (probe columns then build columns): a pair joins only when it is
// TRUE.
type HashJoin struct {
	kind        JoinKind
	schema      *arrow.Schema
	probeSchema *arrow.Schema
	buildSchema *arrow.Schema
	probeKeys   []expr.Expr
	buildKeys   []expr.Expr
	residual    expr.Expr

	build    arrow.RecordBatch
	table    *keyTable
	starts   []int32 // rows of key id g: rowsByID[starts[g]:starts[g+1]]
	rowsByID []int32
	matched  []bool // build rows matched so far (RIGHT, FULL)
	// buildHasNull: some build row has a NULL key (NullAwareAnti).
	buildHasNull bool

	ids []int32

	buildPlan *Stage // what LoadBuildSide runs, and EXPLAIN prints

	budget    *MemoryBudget
	buildHeld int64      // bytes of the build side reserved from budget
	spill     *joinSpill // the build side did not fit: join by partitions
}

var (
	_ Operator = (*HashJoin)(nil)
	_ Stateful = (*HashJoin)(nil)
)

// NewHashJoin builds the hash table over build (batches of buildSchema;
// retained only as one concatenated copy). probeKeys[i] and buildKeys[i]
// must have the same type (integer widths may differ); residual may be
// nil.
func NewHashJoin(ctx context.Context, kind JoinKind, probeSchema, buildSchema *arrow.Schema, build []arrow.RecordBatch,
	probeKeys, buildKeys []expr.Expr, residual expr.Expr) (*HashJoin, error) {
	if len(probeKeys) != len(buildKeys) {
		return nil, fmt.Errorf("hash join: %d probe keys but %d build keys", len(probeKeys), len(buildKeys))
	}
	types := make([]arrow.DataType, len(buildKeys))
	for i := range buildKeys {
		pt, bt := probeKeys[i].Type(), buildKeys[i].Type()
		if !arrow.TypeEqual(pt, bt) && !(len(buildKeys) == 1 && intLike(pt) && intLike(bt)) {
			return nil, fmt.Errorf("hash join: key %s is %s but %s is %s", probeKeys[i], pt, buildKeys[i], bt)
		}
		types[i] = bt
	}
	if residual != nil && residual.Type().ID() != arrow.BOOL {
		return nil, fmt.Errorf("hash join: condition %s is %s, not BOOLEAN", residual, residual.Type())
	}
	fields := append([]arrow.Field{}, probeSchema.Fields()...)
	if !kind.probeOnly() {
		fields = append(fields, buildSchema.Fields()...)
	}
	if kind == NullAwareAntiJoin && (len(buildKeys) != 1 || residual != nil) {
		return nil, fmt.Errorf("hash join: a null-aware anti join takes one key and no condition")
	}
	for i := range fields {
		fields[i].Nullable = true
	}
	j := &HashJoin{
		kind: kind, schema: arrow.NewSchema(fields, nil), probeSchema: probeSchema, buildSchema: buildSchema,
		probeKeys: probeKeys, buildKeys: buildKeys, residual: residual, table: newKeyTable(types),
	}
	var err error
	if j.build, err = concatRows(buildSchema, build); err != nil {
		return nil, fmt.Errorf("hash join: build side: %w", err)
	}
	if err := j.index(ctx); err != nil {
		j.build.Release()
		return nil, fmt.Errorf("hash join: build side: %w", err)
	}
	return j, nil
}

// index builds the key table and the rows of each key, in build order.
func (j *HashJoin) index(ctx context.Context) error {
	n := int(j.build.NumRows())
	j.matched = make([]bool, n)
	keys, err := evalAll(ctx, j.buildKeys, j.build)
	if err != nil {
		return err
	}
	defer releaseAll(keys)
	ids := make([]uint32, n)
	j.table.assign(keys, n, ids, nil)
	j.buildHasNull = false
	for _, k := range keys {
		if k.NullN() > 0 {
			j.buildHasNull = true
		}
	}
	j.starts = make([]int32, j.table.size()+1)
	for _, id := range ids {
		j.starts[id+1]++
	}
	for g := 1; g < len(j.starts); g++ {
		j.starts[g] += j.starts[g-1]
	}
	fill := append([]int32(nil), j.starts[:len(j.starts)-1]...)
	j.rowsByID = make([]int32, n)
	for r, id := range ids {
		j.rowsByID[fill[id]] = int32(r)
		fill[id]++
	}
	return nil
}

// Schema is the probe columns then the build columns.
func (j *HashJoin) Schema() *arrow.Schema { return j.schema }

// Process joins one probe batch.
func (j *HashJoin) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	if j.spill != nil {
		return j.partition(ctx, batch, false)
	}
	keys, err := evalAll(ctx, j.probeKeys, batch)
	if err != nil {
		return fmt.Errorf("hash join: probe keys: %w", err)
	}
	defer releaseAll(keys)
	if cap(j.ids) < n {
		j.ids = make([]int32, n)
	}
	ids := j.ids[:n]
	j.table.lookup(keys, n, ids)

	if j.kind == NullAwareAntiJoin {
		return j.nullAwareAnti(ctx, batch, keys[0], ids, out)
	}
	if j.residual == nil && (j.kind == SemiJoin || j.kind == AntiJoin) {
		var keep []int32
		for i, id := range ids {
			if (id >= 0) == (j.kind == SemiJoin) {
				keep = append(keep, int32(i))
			}
		}
		return j.emitProbeRows(ctx, batch, keep, out)
	}

	// probeMatched is only needed when a residual decides matches.
	var probeMatched []bool
	if j.residual != nil {
		probeMatched = make([]bool, n)
	}
	outerProbe := j.kind == LeftJoin || j.kind == FullJoin
	var pIdx, bIdx []int32
	flush := func(useResidual bool) error {
		if len(pIdx) == 0 {
			return nil
		}
		err := j.emitPairs(ctx, batch, pIdx, bIdx, useResidual, probeMatched, out)
		pIdx, bIdx = pIdx[:0], bIdx[:0]
		return err
	}
	for i, id := range ids {
		if id >= 0 {
			for _, r := range j.rowsByID[j.starts[id]:j.starts[id+1]] {
				pIdx, bIdx = append(pIdx, int32(i)), append(bIdx, r)
			}
		} else if outerProbe && j.residual == nil {
			pIdx, bIdx = append(pIdx, int32(i)), append(bIdx, -1)
		}
		if len(pIdx) >= emitBatchRows {
			if err := flush(j.residual != nil); err != nil {
				return err
			}
		}
	}
	if err := flush(j.residual != nil); err != nil {
		return err
	}
	if j.residual == nil {
		return nil
	}
	// With a residual, which probe rows matched is known only now.
	var rest []int32
	for i, m := range probeMatched {
		if m == (j.kind == SemiJoin) {
			rest = append(rest, int32(i))
		}
	}
	switch j.kind {
	case SemiJoin, AntiJoin:
		return j.emitProbeRows(ctx, batch, rest, out)
	case LeftJoin, FullJoin:
		for _, p := range rest {
			pIdx, bIdx = append(pIdx, p), append(bIdx, -1)
		}
		return flush(false)
	}
	return nil
}

// emitPairs sends the joined rows for (probe, build) pairs; build -1 is a
// NULL-extended probe row. With a residual, only pairs where it is TRUE
// are sent and marked matched.
func (j *HashJoin) emitPairs(ctx context.Context, batch arrow.RecordBatch, pIdx, bIdx []int32, useResidual bool, probeMatched []bool, out Output) error {
	joined, err := j.joinRows(ctx, batch, pIdx, bIdx)
	if err != nil {
		return fmt.Errorf("hash join: %w", err)
	}
	defer joined.Release()
	if !useResidual {
		for _, b := range bIdx {
			if b >= 0 {
				j.matched[b] = true
			}
		}
		if j.kind.probeOnly() {
			return nil
		}
		return out.Send(ctx, Message{Batch: joined})
	}
	maskArr, err := j.residual.Eval(ctx, joined)
	if err != nil {
		return fmt.Errorf("hash join: %s: %w", j.residual, err)
	}
	defer maskArr.Release()
	mask, ok := maskArr.(*array.Boolean)
	if !ok {
		return fmt.Errorf("hash join: %s is not BOOLEAN", j.residual)
	}
	for k := range pIdx {
		if mask.IsValid(k) && mask.Value(k) {
			probeMatched[pIdx[k]] = true
			j.matched[bIdx[k]] = true
		}
	}
	if j.kind.probeOnly() {
		return nil
	}
	kept, err := compute.FilterRecordBatch(ctx, joined, mask, compute.DefaultFilterOptions())
	if err != nil {
		return fmt.Errorf("hash join: %w", err)
	}
	defer kept.Release()
	if kept.NumRows() == 0 {
		return nil
	}
	return out.Send(ctx, Message{Batch: kept})
}

// joinRows gathers probe rows pIdx and build rows bIdx side by side.
func (j *HashJoin) joinRows(ctx context.Context, batch arrow.RecordBatch, pIdx, bIdx []int32) (arrow.RecordBatch, error) {
	pi := int32Array(pIdx)
	defer pi.Release()
	bi := int32Array(bIdx)
	defer bi.Release()
	cols := make([]arrow.Array, 0, j.schema.NumFields())
	// A probe row matching one build row each (a lookup join such as a
	// decorrelated scalar subquery) makes pIdx a run of consecutive rows:
	// a slice of the batch, no copy.
	lo, run := consecutive(pIdx)
	for _, c := range batch.Columns() {
		var t arrow.Array
		var err error
		if run {
			t = array.NewSlice(c, int64(lo), int64(lo+len(pIdx)))
		} else if t, err = takeColumn(ctx, c, pIdx, pi); err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, t)
	}
	nullBuild := slices.Contains(bIdx, -1) // NULL-extended rows: the kernel's nulls
	for _, c := range j.build.Columns() {
		var t arrow.Array
		var err error
		if nullBuild {
			t, err = compute.TakeArray(ctx, c, bi)
		} else {
			t, err = takeColumn(ctx, c, bIdx, bi)
		}
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, t)
	}
	schema := j.schema
	if j.kind.probeOnly() {
		schema = arrow.NewSchema(append(append([]arrow.Field{}, j.probeSchema.Fields()...), j.buildSchema.Fields()...), nil)
	}
	res := array.NewRecordBatch(schema, cols, int64(len(pIdx)))
	releaseAll(cols)
	return res, nil
}

// consecutive reports whether idx is lo, lo+1, lo+2, ... (and not empty).
func consecutive(idx []int32) (lo int, ok bool) {
	if len(idx) == 0 {
		return 0, false
	}
	for i, v := range idx {
		if v != idx[0]+int32(i) {
			return 0, false
		}
	}
	return int(idx[0]), true
}

// nullAwareAnti keeps the probe rows x for which x NOT IN (build keys)
// is TRUE.
func (j *HashJoin) nullAwareAnti(ctx context.Context, batch arrow.RecordBatch, key arrow.Array, ids []int32, out Output) error {
	if j.build.NumRows() == 0 {
		return j.emitProbeRows(ctx, batch, allRows(len(ids)), out)
	}
	if j.buildHasNull {
		return nil
	}
	var keep []int32
	for i, id := range ids {
		if id < 0 && key.IsValid(i) {
			keep = append(keep, int32(i))
		}
	}
	return j.emitProbeRows(ctx, batch, keep, out)
}

func allRows(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// emitProbeRows sends probe rows rows (Semi/Anti output).
func (j *HashJoin) emitProbeRows(ctx context.Context, batch arrow.RecordBatch, rows []int32, out Output) error {
	if len(rows) == 0 {
		return nil
	}
	var res arrow.RecordBatch
	if len(rows) == int(batch.NumRows()) {
		cols := batch.Columns()
		res = array.NewRecordBatch(j.schema, cols, batch.NumRows())
	} else {
		t, err := takeRows(ctx, batch, rows)
		if err != nil {
			return fmt.Errorf("hash join: %w", err)
		}
		res = array.NewRecordBatch(j.schema, t.Columns(), t.NumRows())
		t.Release()
	}
	defer res.Release()
	return out.Send(ctx, Message{Batch: res})
}

// int32Array makes an index array; -1 becomes NULL (a NULL-extended row).
func int32Array(idx []int32) arrow.Array {
	b := array.NewInt32Builder(memAlloc)
	defer b.Release()
	b.Reserve(len(idx))
	for _, v := range idx {
		if v < 0 {
			b.UnsafeAppendBoolToBitmap(false)
		} else {
			b.UnsafeAppend(v)
		}
	}
	return b.NewArray()
}

// OnWatermark emits the unmatched build rows (RIGHT, FULL) at
// WatermarkEnd, then forwards t.
func (j *HashJoin) OnWatermark(ctx context.Context, t int64, out Output) error {
	if t == WatermarkEnd && j.spill != nil {
		if err := j.joinSpilled(ctx, out); err != nil {
			return err
		}
	} else if t == WatermarkEnd && (j.kind == RightJoin || j.kind == FullJoin) {
		if err := j.emitUnmatchedBuild(ctx, out); err != nil {
			return err
		}
	}
	return out.Send(ctx, Message{Watermark: t})
}

func (j *HashJoin) emitUnmatchedBuild(ctx context.Context, out Output) error {
	var rows []int32
	for r, m := range j.matched {
		if !m {
			rows = append(rows, int32(r))
		}
	}
	// A batch query runs once; a later epoch starts matching afresh.
	clear(j.matched)
	if len(rows) == 0 {
		return nil
	}
	bi := int32Array(rows)
	defer bi.Release()
	cols := make([]arrow.Array, 0, j.schema.NumFields())
	for _, f := range j.probeSchema.Fields() {
		cols = append(cols, array.MakeArrayOfNull(memAlloc, f.Type, len(rows)))
	}
	for _, c := range j.build.Columns() {
		t, err := compute.TakeArray(ctx, c, bi)
		if err != nil {
			releaseAll(cols)
			return fmt.Errorf("hash join: %w", err)
		}
		cols = append(cols, t)
	}
	res := array.NewRecordBatch(j.schema, cols, int64(len(rows)))
	releaseAll(cols)
	defer res.Release()
	return sendSliced(ctx, res, out)
}

// EndEpoch does nothing.
func (j *HashJoin) EndEpoch(ctx context.Context, out Output) error { return nil }

// Snapshot writes which build rows have matched; the build side itself
// is part of the plan, not the state.
func (j *HashJoin) Snapshot(w io.Writer) error {
	p := make([]byte, len(j.matched))
	for i, m := range j.matched {
		if m {
			p[i] = 1
		}
	}
	if err := writeSection(w, p); err != nil {
		return fmt.Errorf("hash join snapshot: %w", err)
	}
	return nil
}

// StateDescription is the join kind, keys and build columns: the matched
// flags are per build row.
func (j *HashJoin) StateDescription() StateDescription {
	cond := ""
	if j.residual != nil {
		cond = j.residual.String()
	}
	return StateDescription{Kind: "hash_join", Props: []StateProperty{
		{Name: "join kind", Value: j.kind.String()},
		{Name: "probe keys", Value: describeExprs(j.probeKeys)},
		{Name: "build keys", Value: describeExprs(j.buildKeys)},
		{Name: "condition", Value: cond},
		{Name: "build columns", Value: describeSchema(j.buildSchema)},
	}}
}

// Restore loads the matched flags.
func (j *HashJoin) Restore(r io.Reader) error {
	p, err := readSection(r)
	if err != nil {
		return fmt.Errorf("hash join restore: %w", err)
	}
	if len(p) != len(j.matched) {
		return fmt.Errorf("hash join restore: snapshot has %d build rows, plan has %d", len(p), len(j.matched))
	}
	for i, b := range p {
		j.matched[i] = b == 1
	}
	return nil
}

// SetBuildPlan records the stage that produces the build side:
// LoadBuildSide runs it, and Explain prints it as the join's second child.
func (j *HashJoin) SetBuildPlan(st *Stage) { j.buildPlan = st }

// SideInputs returns the build plan set by SetBuildPlan, if any.
func (j *HashJoin) SideInputs() []*Stage {
	if j.buildPlan == nil {
		return nil
	}
	return []*Stage{j.buildPlan}
}

// Release drops the build side.
func (j *HashJoin) Release() {
	j.budget.Release(j.buildHeld)
	j.buildHeld = 0
	if j.spill != nil {
		j.spill.remove()
		j.spill = nil
	}
	if j.build != nil {
		j.build.Release()
		j.build = nil
	}
}

// String is the EXPLAIN line: HashJoin Inner on=[a = b] cond=(...) build=N rows.
func (j *HashJoin) String() string {
	var on []string
	for i := range j.probeKeys {
		on = append(on, j.probeKeys[i].String()+" = "+j.buildKeys[i].String())
	}
	s := "HashJoin " + j.kind.String()
	if len(on) == 0 {
		s += " cross"
	} else {
		s += " on=[" + strings.Join(on, ", ") + "]"
	}
	if j.residual != nil {
		s += " cond=" + j.residual.String()
	}
	if j.build != nil && j.buildPlan == nil {
		// With a build plan the tree shows the build side itself.
		s += fmt.Sprintf(" build=%d rows", j.build.NumRows())
	}
	return s
}

// Rebuild replaces the build side (a stream-static join refreshing its
// lookup table between epochs). Unmatched-row tracking starts over.
func (j *HashJoin) Rebuild(ctx context.Context, build []arrow.RecordBatch) error {
	b, err := concatRows(j.buildSchema, build)
	if err != nil {
		return fmt.Errorf("hash join: rebuilding: %w", err)
	}
	old, oldTable := j.build, j.table
	types := make([]arrow.DataType, len(j.buildKeys))
	for i, k := range j.buildKeys {
		types[i] = k.Type()
	}
	j.build, j.table = b, newKeyTable(types)
	if err := j.index(ctx); err != nil {
		b.Release()
		j.build, j.table = old, oldTable
		return fmt.Errorf("hash join: rebuilding: %w", err)
	}
	if old != nil {
		old.Release()
	}
	return nil
}
