package exec

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

// gatedSource holds the first split's reader until gate closes, so the
// others are read (and, unordered, consumed) before it.
type gatedSource struct {
	connector.Source
	slow string
	gate chan struct{}
	read atomic.Int64 // batches handed out
}

func (g *gatedSource) Open(ctx context.Context, s connector.Split) (connector.RecordReader, error) {
	r, err := g.Source.Open(ctx, s)
	if err != nil || s.ID() != g.slow {
		return &countReader{RecordReader: r, n: &g.read}, err
	}
	return &gatedReader{RecordReader: r, gate: g.gate}, nil
}

type countReader struct {
	connector.RecordReader
	n *atomic.Int64
}

func (c *countReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := c.RecordReader.Next(ctx)
	if err == nil {
		c.n.Add(1)
	}
	return b, err
}

type gatedReader struct {
	connector.RecordReader
	gate chan struct{}
}

func (g *gatedReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.RecordReader.Next(ctx)
}

// keyedTable has n one-batch splits of `per` rows (k = v*7 % mod, v).
func keyedTable(t testing.TB, n, per, mod int) *memtable.Table {
	var bs []arrow.RecordBatch
	v := int64(0)
	for i := 0; i < n; i++ {
		var ks, vs []any
		for j := 0; j < per; j++ {
			ks = append(ks, v*7%int64(mod))
			vs = append(vs, v)
			v++
		}
		bs = append(bs, batchOf(t, []string{"k", "v"}, ks, vs))
	}
	return memtable.New(bs[0].Schema(), bs)
}

func exactAggregate(t testing.TB, keyed bool) *HashAggregate {
	v := tcol{1, arrow.PrimitiveTypes.Int64}
	var aggs []*expr.Aggregate
	for _, name := range []string{"count", "sum", "min", "max", "avg"} {
		var args []expr.Expr
		if name != "count" {
			args = []expr.Expr{v}
		}
		a, err := expr.NewAggregate(name, args, false)
		if err != nil {
			t.Fatal(err)
		}
		aggs = append(aggs, a)
	}
	var keys []expr.Expr
	names := []string{"n", "s", "lo", "hi", "mean"}
	if keyed {
		keys = []expr.Expr{tcol{0, arrow.PrimitiveTypes.Int64}}
		names = append([]string{"k"}, names...)
	}
	h, err := NewHashAggregate(keys, names, aggs)
	if err != nil {
		t.Fatal(err)
	}
	if !h.AnyOrder() {
		t.Fatal("count, sum, min, max and avg of BIGINT should take any order")
	}
	return h
}

// runAgg runs agg over src's splits, the first one held back until the
// others are read when slow.
func runAgg(t *testing.T, src connector.Source, agg *HashAggregate, unordered, slow bool) []string {
	t.Helper()
	gs := &gatedSource{Source: src, gate: make(chan struct{})}
	sc := scanOf(t, gs, 3)
	sc.Unordered = unordered
	gs.slow = sc.Splits[0].ID()
	if slow {
		others := int64(len(sc.Splits) - 1)
		go func() {
			for gs.read.Load() < others {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(5 * time.Millisecond)
			close(gs.gate)
		}()
	} else {
		close(gs.gate)
	}
	out := NewCollect()
	if err := Run(context.Background(), &Stage{Scan: sc, Ops: []Operator{agg}}, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	return rowsOf(out.Batches())
}

func TestUnorderedAggregateGivesTheOrderedResult(t *testing.T) {
	for _, tc := range []struct {
		name  string
		keyed bool
		mod   int
		spill bool
	}{{"global", false, 1, false}, {"few groups", true, 13, false}, {"a group per row", true, 100000, false}, {"spilled", true, 997, true}} {
		t.Run(tc.name, func(t *testing.T) {
			src := keyedTable(t, 12, 200, tc.mod)
			want := runAgg(t, src, exactAggregate(t, tc.keyed), false, false)
			agg := exactAggregate(t, tc.keyed)
			if tc.spill {
				agg.SetMemoryBudget(NewMemoryBudget(8<<10, t.TempDir()))
			}
			got := runAgg(t, src, agg, true, true)
			if !slices.Equal(got, want) {
				t.Fatalf("unordered delivery gave\n%v\nwant (ordered)\n%v", head(got), head(want))
			}
			if tc.spill && agg.budget.Spills() == 0 {
				t.Fatal("the aggregate did not spill")
			}
		})
	}
}

func head(rows []string) []string { return rows[:min(len(rows), 8)] }

// anyOrderProbe counts rows as an order-insensitive consumer.
type anyOrderProbe struct {
	Base
	schema *arrow.Schema
	rows   atomic.Int64
	delay  time.Duration
	// held is the most batches read but not yet consumed.
	src  *gatedSource
	done atomic.Int64
	max  int64
}

func (p *anyOrderProbe) Schema() *arrow.Schema { return p.schema }
func (p *anyOrderProbe) String() string        { return "probe" }
func (p *anyOrderProbe) AnyOrder() bool        { return true }
func (p *anyOrderProbe) Process(ctx context.Context, b arrow.RecordBatch, out Output) error {
	return fmt.Errorf("Process called under unordered delivery")
}
func (p *anyOrderProbe) ProcessAt(ctx context.Context, b arrow.RecordBatch, pos Pos, out Output) error {
	if p.src != nil {
		p.max = max(p.max, p.src.read.Load()-p.done.Load())
	}
	time.Sleep(p.delay)
	p.rows.Add(b.NumRows())
	p.done.Add(1)
	return nil
}

func TestUnorderedSlowSplitDoesNotBlockTheOthers(t *testing.T) {
	src := keyedTable(t, 20, 10, 5)
	gs := &gatedSource{Source: src, gate: make(chan struct{})}
	sc := scanOf(t, gs, 2)
	sc.Unordered = true
	gs.slow = sc.Splits[0].ID()
	probe := &anyOrderProbe{schema: src.Schema()}
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), &Stage{Scan: sc, Ops: []Operator{probe}}, WatermarkEnd, NewCollect(), nil)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for probe.rows.Load() < 19*10 {
		if time.Now().After(deadline) {
			close(gs.gate)
			t.Fatalf("the consumer got %d of the other splits' 190 rows while the first split was stuck", probe.rows.Load())
		}
		time.Sleep(time.Millisecond)
	}
	close(gs.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if probe.rows.Load() != 200 {
		t.Fatalf("consumed %d rows, want 200", probe.rows.Load())
	}
}

func TestUnorderedBufferStaysUnderItsBound(t *testing.T) {
	src := keyedTable(t, 200, 100, 5)
	splits, _ := src.Plan(context.Background(), nil, nil)
	r, _ := src.Open(context.Background(), splits[0])
	b, _ := r.Next(context.Background())
	per := rowBytes(b)
	r.Close()

	gs := &gatedSource{Source: src, gate: make(chan struct{})}
	close(gs.gate)
	sc := scanOf(t, gs, 2)
	sc.Unordered = true
	sc.BufferBytes = 5 * per
	gs.slow = "none"
	probe := &anyOrderProbe{schema: src.Schema(), delay: 200 * time.Microsecond, src: gs}
	if err := Run(context.Background(), &Stage{Scan: sc, Ops: []Operator{probe}}, WatermarkEnd, NewCollect(), nil); err != nil {
		t.Fatal(err)
	}
	if probe.rows.Load() != 200*100 {
		t.Fatalf("consumed %d rows", probe.rows.Load())
	}
	// Read but unconsumed: what the bound admits, plus the one batch each
	// worker holds while it waits for room.
	if limit := sc.BufferBytes/per + 2; probe.max > limit {
		t.Fatalf("%d batches of %d bytes were buffered; the bound of %d bytes allows %d", probe.max, per, sc.BufferBytes, limit)
	}
	if probe.max < 3 {
		t.Fatalf("only %d batches were ever ahead of a slow consumer: the workers did not read ahead", probe.max)
	}
}

func TestRowBytesOfNestedColumns(t *testing.T) {
	lb := array.NewListBuilder(memory.DefaultAllocator, arrow.ListOf(arrow.BinaryTypes.String).Elem())
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.StringBuilder)
	lb.Append(true)
	vb.Append("abc")
	lb.AppendNull()
	l := lb.NewArray()
	defer l.Release()
	lists := arrow.NewSchema([]arrow.Field{{Name: "l", Type: l.DataType(), Nullable: true}}, nil)
	b := array.NewRecordBatch(lists, []arrow.Array{l}, 2)
	defer b.Release()
	if n := rowBytes(b); n < 3 {
		t.Fatalf("a list of one 3-byte string counts %d bytes", n)
	}
}
