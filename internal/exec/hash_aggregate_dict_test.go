package exec

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

// strDict is a STRING dictionary for dictionary-array test columns.
func strDict(vals ...string) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewArray()
}

// dictCol is a dictionary array over dict; index -1 is NULL.
func dictCol(dict arrow.Array, idx ...int32) *array.Dictionary {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, i := range idx {
		if i < 0 {
			b.AppendNull()
		} else {
			b.Append(i)
		}
	}
	ia := b.NewArray()
	defer ia.Release()
	return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: dict.DataType()}, ia, dict)
}

func decoded(t *testing.T, d *array.Dictionary) arrow.Array {
	t.Helper()
	v, err := dictValues(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The key table gives dictionary keys the ids their values get as plain
// strings, across dictionaries, NULLs and a forget.
func TestKeyTableDictionaryKeys(t *testing.T) {
	a := strDict("x", "y", "z", "a-key-longer-than-sixteen-bytes")
	defer a.Release()
	b := strDict("z", "w", "x")
	defer b.Release()
	cols := []*array.Dictionary{
		dictCol(a, 0, 1, -1, 0, 3),
		dictCol(a, 2, 2, 1, 3), // same dictionary: ids from the memo
		dictCol(b, 0, 1, 2, -1, 1),
		dictCol(a, 1, 0), // back to the first dictionary
	}
	dt, pt := newKeyTable([]arrow.DataType{arrow.BinaryTypes.String}), newKeyTable([]arrow.DataType{arrow.BinaryTypes.String})
	for i, d := range cols {
		n := d.Len()
		plain := decoded(t, d)
		dids, pids := make([]uint32, n), make([]uint32, n)
		df := slices.Clone(dt.assign([]arrow.Array{d}, n, dids, nil))
		pf := pt.assign([]arrow.Array{plain}, n, pids, nil)
		if !slices.Equal(dids, pids) || !slices.Equal(df, pf) {
			t.Fatalf("batch %d: dictionary ids %v fresh %v, plain ids %v fresh %v", i, dids, df, pids, pf)
		}
		plain.Release()
		d.Release()
	}
	// A forgotten batch's keys are new again, whatever the memo held.
	c := strDict("p", "q", "x")
	defer c.Release()
	for round := 0; round < 2; round++ {
		d := dictCol(c, 0, 1, 2, 0)
		plain := decoded(t, d)
		before := dt.size()
		ids, pids := make([]uint32, 4), make([]uint32, 4)
		fresh := slices.Clone(dt.assign([]arrow.Array{d}, 4, ids, nil))
		pfresh := pt.assign([]arrow.Array{plain}, 4, pids, nil)
		if !slices.Equal(ids, pids) || !slices.Equal(fresh, pfresh) {
			t.Fatalf("round %d: dictionary ids %v fresh %v, plain ids %v fresh %v", round, ids, fresh, pids, pfresh)
		}
		if round == 0 {
			dt.forget([]arrow.Array{d}, 4, fresh, before)
			pt.forget([]arrow.Array{plain}, 4, pfresh, before)
		}
		plain.Release()
		d.Release()
	}
}

// dictBatches are (s, v, o) batches with s and o dictionary columns (o
// over a second dictionary), some sharing one, then a plain batch.
func dictBatches(t *testing.T) (dicts, plains []arrow.RecordBatch) {
	t.Helper()
	s1, s2, o := strDict("a", "b", "c"), strDict("c", "d"), strDict("o1", "o2")
	defer s1.Release()
	defer s2.Release()
	defer o.Release()
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	dsch := arrow.NewSchema([]arrow.Field{{Name: "s", Type: dictType, Nullable: true}, {Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "o", Type: dictType, Nullable: true}}, nil)
	mk := func(s arrow.Array, si []int32, vs []int64, oi []int32) arrow.RecordBatch {
		vb := array.NewInt64Builder(memory.DefaultAllocator)
		defer vb.Release()
		vb.AppendValues(vs, nil)
		va := vb.NewArray()
		sd, od := dictCol(s, si...), dictCol(o, oi...)
		b := array.NewRecordBatch(dsch, []arrow.Array{sd, va, od}, int64(len(vs)))
		sd.Release()
		va.Release()
		od.Release()
		return b
	}
	dicts = []arrow.RecordBatch{
		mk(s1, []int32{0, 1, -1, 0}, []int64{1, 2, 3, 4}, []int32{0, 1, 1, -1}),
		mk(s1, []int32{2, 2, 1}, []int64{5, 6, 7}, []int32{0, 0, 1}),
		mk(s2, []int32{0, 1, -1}, []int64{8, 9, 10}, []int32{1, -1, 0}),
	}
	for _, b := range dicts {
		p, err := plainBatch(b, -1)
		if err != nil {
			t.Fatal(err)
		}
		plains = append(plains, p)
	}
	// A plain batch in between, as a Parquet fallback page gives.
	extra := batchOf(t, []string{"s", "v", "o"}, []any{"d", nil, "a"}, ints(int64(11), int64(12), int64(13)), []any{"o3", "o1", nil})
	extra.Retain()
	dicts = append(dicts, extra)
	plains = append(plains, extra)
	return dicts, plains
}

func dictAggregate(t *testing.T, keyType arrow.DataType) *HashAggregate {
	t.Helper()
	sum, err := expr.NewAggregate("sum", []expr.Expr{expr.Col(1, "v", arrow.PrimitiveTypes.Int64)}, false)
	if err != nil {
		t.Fatal(err)
	}
	mx, err := expr.NewAggregate("max", []expr.Expr{expr.Col(2, "o", arrow.BinaryTypes.String)}, false)
	if err != nil {
		t.Fatal(err)
	}
	cnt, err := expr.NewAggregate("count", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHashAggregate([]expr.Expr{expr.Col(0, "s", keyType)}, []string{"s", "sum", "max", "n"}, []*expr.Aggregate{sum, mx, cnt})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func emitted(t *testing.T, h *HashAggregate) []string {
	t.Helper()
	out := NewCollect()
	if err := h.OnWatermark(context.Background(), WatermarkEnd, out); err != nil {
		t.Fatal(err)
	}
	return rowsOf(out.Batches())
}

// Dictionary batches group as their decoded values do, through Process
// and through partials, with other dictionary columns decoded for the
// aggregates that read them.
func TestHashAggregateDictionaryBatches(t *testing.T) {
	dicts, plains := dictBatches(t)
	defer releaseBatches(dicts)
	defer releaseBatches(plains)
	ref := dictAggregate(t, arrow.BinaryTypes.String)
	for _, b := range plains {
		if err := ref.Process(context.Background(), b, nil); err != nil {
			t.Fatal(err)
		}
	}
	want := emitted(t, ref)
	if len(want) != 5 {
		t.Fatalf("reference gave %d groups, want 5 (a, b, NULL, c, d): %v", len(want), want)
	}

	h := dictAggregate(t, arrow.BinaryTypes.String)
	if !h.PartialsTakeDictionaries() {
		t.Fatal("a bare STRING key no aggregate reads should take dictionaries")
	}
	for _, b := range dicts {
		if err := h.Process(context.Background(), b, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := emitted(t, h); !slices.Equal(got, want) {
		t.Fatalf("Process of dictionary batches gave\n%v\nwant\n%v", got, want)
	}

	h = dictAggregate(t, arrow.BinaryTypes.String)
	for si, split := range [][]arrow.RecordBatch{dicts[:2], dicts[2:]} {
		p, err := h.NewPartial()
		if err != nil {
			t.Fatal(err)
		}
		row := int64(0)
		for _, b := range split {
			if err := p.ProcessAt(context.Background(), b, Pos(int64(si)<<PosSplitShift+row)); err != nil {
				t.Fatal(err)
			}
			row += b.NumRows()
		}
		if err := h.MergePartial(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if got := emitted(t, h); !slices.Equal(got, want) {
		t.Fatalf("partials of dictionary batches gave\n%v\nwant\n%v", got, want)
	}
}

func TestHashAggregateTakesDictionariesOnlyForABareUnreadKey(t *testing.T) {
	s := expr.Col(0, "s", arrow.BinaryTypes.String)
	agg := func(name string, args ...expr.Expr) *expr.Aggregate {
		a, err := expr.NewAggregate(name, args, false)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		name string
		keys []expr.Expr
		aggs []*expr.Aggregate
		want bool
	}{
		{"bare key", []expr.Expr{s}, []*expr.Aggregate{agg("count")}, true},
		{"aggregate reads the key", []expr.Expr{s}, []*expr.Aggregate{agg("max", s)}, false},
		{"two keys", []expr.Expr{s, expr.Col(1, "v", arrow.PrimitiveTypes.Int64)}, []*expr.Aggregate{agg("count")}, false},
		{"integer key", []expr.Expr{expr.Col(1, "v", arrow.PrimitiveTypes.Int64)}, []*expr.Aggregate{agg("count")}, false},
	} {
		names := make([]string, len(tc.keys))
		for i := range names {
			names[i] = "k" + string(rune('0'+i))
		}
		h, err := NewHashAggregate(tc.keys, names, tc.aggs)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.PartialsTakeDictionaries(); got != tc.want {
			t.Errorf("%s: PartialsTakeDictionaries() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// dictSource serves each split's batches plainly through Next and with
// dictionary columns through NextDict, counting the NextDict calls.
type dictSource struct {
	*memtable.Table
	dicts   [][]arrow.RecordBatch
	dictUse atomic.Int64
}

func (s *dictSource) Open(ctx context.Context, sp connector.Split) (connector.RecordReader, error) {
	r, err := s.Table.Open(ctx, sp)
	if err != nil {
		return nil, err
	}
	i := 0
	for j, other := range s.Splits() {
		if other.ID() == sp.ID() {
			i = j
		}
	}
	return &dictSplitReader{RecordReader: r, src: s, dicts: s.dicts[i]}, nil
}

type dictSplitReader struct {
	connector.RecordReader
	src   *dictSource
	dicts []arrow.RecordBatch
}

func (r *dictSplitReader) NextDict(ctx context.Context) (arrow.RecordBatch, error) {
	r.src.dictUse.Add(1)
	if _, err := r.RecordReader.Next(ctx); err != nil {
		return nil, err
	}
	b := r.dicts[0]
	r.dicts = r.dicts[1:]
	b.Retain()
	return b, nil
}

func (s *dictSource) Splits() []connector.Split {
	sp, _ := s.Table.Plan(context.Background(), nil, nil)
	return sp
}

// A scan folding partials of an aggregate that takes dictionaries reads
// through NextDict, and gives what plain batches give; with scan
// operators of its own it reads plainly.
func TestScanReadsDictionariesForPartialsThatTakeThem(t *testing.T) {
	dicts, plains := dictBatches(t)
	defer releaseBatches(dicts)
	defer releaseBatches(plains)
	// One batch per split: memtable splits by batch.
	src := &dictSource{Table: memtable.New(plains[0].Schema(), plains)}
	for _, b := range dicts {
		src.dicts = append(src.dicts, []arrow.RecordBatch{b})
	}
	plainRun := func(local bool) []string {
		agg := dictAggregate(t, arrow.BinaryTypes.String)
		sc := scanOf(t, memtable.New(plains[0].Schema(), plains), 2)
		sc.Unordered = true
		out := NewCollect()
		if err := Run(context.Background(), &Stage{Scan: sc, Ops: []Operator{agg}}, WatermarkEnd, out, nil); err != nil {
			t.Fatal(err)
		}
		return rowsOf(out.Batches())
	}
	want := plainRun(false)
	for _, local := range []bool{false, true} {
		src.dictUse.Store(0)
		agg := dictAggregate(t, arrow.BinaryTypes.String)
		sc := scanOf(t, src, 2)
		sc.Unordered = true
		if local {
			sc.Local = func() ([]Operator, error) { return []Operator{passThrough{}}, nil }
		}
		out := NewCollect()
		if err := Run(context.Background(), &Stage{Scan: sc, Ops: []Operator{agg}}, WatermarkEnd, out, nil); err != nil {
			t.Fatal(err)
		}
		got := rowsOf(out.Batches())
		if !slices.Equal(sorted(got), sorted(want)) {
			t.Fatalf("local=%v: gave\n%v\nwant\n%v", local, got, want)
		}
		if used := src.dictUse.Load(); local != (used == 0) {
			t.Errorf("local=%v: %d NextDict calls", local, used)
		}
	}
}

func sorted(rows []string) []string { rows = slices.Clone(rows); slices.Sort(rows); return rows }

// passThrough is a scan operator that forwards batches.
type passThrough struct{ Base }

func (passThrough) Schema() *arrow.Schema { return nil }
func (passThrough) String() string        { return "pass" }
func (passThrough) Process(ctx context.Context, b arrow.RecordBatch, out Output) error {
	return out.Send(ctx, Message{Batch: b})
}
