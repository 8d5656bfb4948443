package exec

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
)

// A hash join whose build side outgrows its budget joins partition by
// partition (a grace hash join): build and probe rows are hash
// partitioned by key into spill files, each build partition is loaded in
// turn and its probe partition streamed through it. The rows carry their
// sequence numbers (probe row, build row) and go through a spilling Sort
// on them, so the output order is the in-memory one: probe order, each
// probe row's matches in build order, unmatched build rows last.

var _ MemoryUser = (*HashJoin)(nil)

// SetMemoryBudget bounds the build side LoadBuildSide holds in memory.
func (j *HashJoin) SetMemoryBudget(b *MemoryBudget) { j.budget = b }

type joinSpill struct {
	seed         maphash.Seed
	build, probe [spillPartitions]*runWriter
	buildSeq     int64
	probeSeq     int64
	enc          keyEncoder
	buildSchema  *arrow.Schema // build columns + __bseq
	probeSchema  *arrow.Schema // probe columns + __pseq
	buildRuns    [spillPartitions]*spillRun
}

func (s *joinSpill) remove() {
	for i := range s.build {
		if s.build[i] != nil {
			s.build[i].abort()
		}
		if s.probe[i] != nil {
			s.probe[i].abort()
		}
		if s.buildRuns[i] != nil {
			s.buildRuns[i].file.remove()
		}
	}
}

// buildSink gathers the build side within the budget, and partitions it
// to disk once it does not fit.
type buildSink struct {
	j       *HashJoin
	batches []arrow.RecordBatch
	held    int64
}

func (s *buildSink) Send(ctx context.Context, m Message) error {
	if m.IsWatermark() || m.Batch.NumRows() == 0 {
		return nil
	}
	j := s.j
	if j.spill != nil {
		return j.partition(ctx, m.Batch, true)
	}
	n := rowBytes(m.Batch)
	if j.budget.Reserve(n) == nil {
		s.held += n
		m.Batch.Retain()
		s.batches = append(s.batches, m.Batch)
		return nil
	}
	j.spill = &joinSpill{seed: maphash.MakeSeed(),
		buildSchema: withSeq(j.buildSchema, "__bseq"), probeSchema: withSeq(j.probeSchema, "__pseq")}
	for _, b := range s.batches {
		if err := j.partition(ctx, b, true); err != nil {
			return err
		}
	}
	s.release()
	return j.partition(ctx, m.Batch, true)
}

func (s *buildSink) release() {
	releaseBatches(s.batches)
	s.batches = nil
	s.j.budget.Release(s.held)
	s.held = 0
}

func withSeq(s *arrow.Schema, name string) *arrow.Schema {
	return arrow.NewSchema(append(append([]arrow.Field{}, s.Fields()...), arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}), nil)
}

// partition appends b's rows, numbered, to their partitions' files.
func (j *HashJoin) partition(ctx context.Context, b arrow.RecordBatch, build bool) error {
	sp := j.spill
	keys, schema, seq, writers := j.probeKeys, sp.probeSchema, &sp.probeSeq, &sp.probe
	if build {
		keys, schema, seq, writers = j.buildKeys, sp.buildSchema, &sp.buildSeq, &sp.build
	}
	n := int(b.NumRows())
	cols, err := evalAll(ctx, keys, b)
	if err != nil {
		return fmt.Errorf("hash join: partitioning: %w", err)
	}
	part := make([]uint8, n)
	if len(cols) == 1 && intLike(cols[0].DataType()) {
		// Integer keys of different widths must land together.
		vals := int64s(cols[0], nil)
		var buf [8]byte
		for i := range part {
			v := uint64(vals[i])
			if cols[0].IsNull(i) {
				v = 0
			}
			for k := range buf {
				buf[k] = byte(v >> (8 * k))
			}
			part[i] = uint8(maphash.Bytes(sp.seed, buf[:]) % spillPartitions)
		}
	} else if len(cols) > 0 {
		for i, k := range sp.enc.encode(cols, n) {
			part[i] = uint8(maphash.Bytes(sp.seed, k) % spillPartitions)
		}
	}
	releaseAll(cols)
	sb := array.NewInt64Builder(memAlloc)
	sb.Reserve(n)
	for i := 0; i < n; i++ {
		sb.UnsafeAppend(*seq + int64(i))
	}
	seqCol := sb.NewArray()
	sb.Release()
	*seq += int64(n)
	numbered := array.NewRecordBatch(schema, append(append([]arrow.Array{}, b.Columns()...), seqCol), int64(n))
	seqCol.Release()
	defer numbered.Release()
	var rows [spillPartitions][]int32
	for i, p := range part {
		rows[p] = append(rows[p], int32(i))
	}
	for p := range rows {
		if len(rows[p]) == 0 {
			continue
		}
		if writers[p] == nil {
			w, err := newRunWriter(j.budget, schema)
			if err != nil {
				return fmt.Errorf("hash join: %w", err)
			}
			writers[p] = w
		}
		sub := numbered
		if len(rows[p]) < n {
			if sub, err = takeRows(ctx, numbered, rows[p]); err != nil {
				return fmt.Errorf("hash join: partitioning: %w", err)
			}
		} else {
			sub.Retain()
		}
		err := writers[p].write(sub)
		sub.Release()
		if err != nil {
			return fmt.Errorf("hash join: %w", err)
		}
	}
	return nil
}

// loadBuildWithin runs the build plan into a buildSink: in memory when it
// fits, else partitioned on disk.
func loadBuildWithin(ctx context.Context, j *HashJoin) error {
	if j.kind == NullAwareAntiJoin {
		// NOT IN needs the whole build side at once (is it empty, has it
		// a NULL): it stays in memory, unreserved.
		coll := NewCollect()
		if err := Run(ctx, j.buildPlan, WatermarkEnd, coll, nil); err != nil {
			return err
		}
		return j.Rebuild(ctx, coll.Batches())
	}
	sink := &buildSink{j: j}
	defer sink.release()
	if j.spill != nil {
		j.spill.remove()
		j.spill = nil
	}
	j.budget.Release(j.buildHeld)
	j.buildHeld = 0
	if err := Run(ctx, j.buildPlan, WatermarkEnd, sink, nil); err != nil {
		return err
	}
	if j.spill == nil {
		// The table keeps the reservation while the probe side streams.
		j.buildHeld, sink.held = sink.held, 0
		return j.Rebuild(ctx, sink.batches)
	}
	sp := j.spill
	for p, w := range sp.build {
		if w == nil {
			continue
		}
		run, err := w.finish()
		sp.build[p] = nil
		if err != nil {
			return fmt.Errorf("hash join: %w", err)
		}
		sp.buildRuns[p] = run
	}
	// The in-memory table is empty: rows only meet in partitions.
	return j.Rebuild(ctx, nil)
}

// joinSpilled joins partition by partition, then emits in sequence order.
func (j *HashJoin) joinSpilled(ctx context.Context, out Output) error {
	sp := j.spill
	defer func() {
		sp.remove()
		j.spill = nil
	}()
	semi := j.kind.probeOnly()
	np := len(j.probeSchema.Fields())
	// The residual reads build columns after the probe's: one further
	// along now that the probe side carries its sequence number.
	var residual expr.Expr
	if j.residual != nil {
		shift := map[int]int{}
		for i := range j.buildSchema.Fields() {
			shift[np+i] = np + 1 + i
		}
		residual = expr.Remap(j.residual, shift)
	}
	var sortSchema *arrow.Schema
	var keys []SortKey
	pseq := SortKey{Expr: expr.Col(np, "__pseq", arrow.PrimitiveTypes.Int64)}
	if semi {
		sortSchema = sp.probeSchema
		keys = []SortKey{pseq}
	} else {
		fields := append(append([]arrow.Field{}, sp.probeSchema.Fields()...), sp.buildSchema.Fields()...)
		for i := range fields {
			fields[i].Nullable = true
		}
		sortSchema = arrow.NewSchema(fields, nil)
		nb := len(sp.buildSchema.Fields())
		keys = []SortKey{pseq, {Expr: expr.Col(np+1+nb-1, "__bseq", arrow.PrimitiveTypes.Int64)}}
	}
	srt := NewSort(sortSchema, keys)
	srt.SetMemoryBudget(j.budget)
	toSort := OutputFunc(func(ctx context.Context, m Message) error {
		if m.IsWatermark() {
			return nil
		}
		return srt.Process(ctx, m.Batch, nil)
	})
	for p := 0; p < spillPartitions; p++ {
		if err := j.joinPartition(ctx, p, residual, toSort); err != nil {
			return err
		}
	}
	// Drop the sequence numbers on the way out.
	keep := make([]int, 0, j.schema.NumFields())
	for i := 0; i < np; i++ {
		keep = append(keep, i)
	}
	if !semi {
		for i := range j.buildSchema.Fields() {
			keep = append(keep, np+1+i)
		}
	}
	return srt.OnWatermark(ctx, WatermarkEnd, OutputFunc(func(ctx context.Context, m Message) error {
		if m.IsWatermark() {
			return nil
		}
		cols := make([]arrow.Array, len(keep))
		for i, c := range keep {
			cols[i] = m.Batch.Column(c)
		}
		res := array.NewRecordBatch(j.schema, cols, m.Batch.NumRows())
		defer res.Release()
		return out.Send(ctx, Message{Batch: res})
	}))
}

func (j *HashJoin) joinPartition(ctx context.Context, p int, residual expr.Expr, out Output) error {
	sp := j.spill
	var build []arrow.RecordBatch
	if r := sp.buildRuns[p]; r != nil {
		bs, err := readRun(r)
		if err != nil {
			return fmt.Errorf("hash join: %w", err)
		}
		build = bs
	}
	defer releaseBatches(build)
	var probe *spillRun
	if w := sp.probe[p]; w != nil {
		run, err := w.finish()
		sp.probe[p] = nil
		if err != nil {
			return fmt.Errorf("hash join: %w", err)
		}
		probe = run
		defer run.file.remove()
	}
	if probe == nil && j.kind != RightJoin && j.kind != FullJoin {
		return nil
	}
	sub, err := NewHashJoin(ctx, j.kind, sp.probeSchema, sp.buildSchema, build, j.probeKeys, j.buildKeys, residual)
	if err != nil {
		return err
	}
	defer sub.Release()
	if probe != nil {
		rd, err := probe.open()
		if err != nil {
			return err
		}
		defer rd.close()
		for {
			b, err := rd.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			err = sub.Process(ctx, b, out)
			b.Release()
			if err != nil {
				return err
			}
		}
	}
	return sub.OnWatermark(ctx, WatermarkEnd, out)
}

// readRun reads a whole run into memory.
func readRun(r *spillRun) ([]arrow.RecordBatch, error) {
	rd, err := r.open()
	if err != nil {
		return nil, err
	}
	defer rd.close()
	var out []arrow.RecordBatch
	for {
		b, err := rd.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			releaseBatches(out)
			return nil, err
		}
		out = append(out, b)
	}
}
