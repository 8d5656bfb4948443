package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/connector/memtable"
)

// countingSource wraps a source and counts the splits opened.
type countingSource struct {
	connector.Source
	opened atomic.Int64
	failAt string
}

func (c *countingSource) Open(ctx context.Context, s connector.Split) (connector.RecordReader, error) {
	c.opened.Add(1)
	if s.ID() == c.failAt {
		return &failReader{}, nil
	}
	return c.Source.Open(ctx, s)
}

type failReader struct{}

func (failReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return nil, fmt.Errorf("corrupt data")
}
func (failReader) Close() error { return nil }

type recObserver struct {
	mu            sync.Mutex
	started, done int
	rows          int64
}

func (o *recObserver) SplitStarted(id string, size int64) {
	o.mu.Lock()
	o.started++
	o.mu.Unlock()
}
func (o *recObserver) SplitDone(id string, rows, bytes int64) {
	o.mu.Lock()
	o.done++
	o.rows += rows
	o.mu.Unlock()
}

// seqTable has n batches of `per` rows numbered 0.. in order.
func seqTable(t testing.TB, n, per int) *memtable.Table {
	var bs []arrow.RecordBatch
	v := int64(0)
	for i := 0; i < n; i++ {
		var c []any
		for j := 0; j < per; j++ {
			c = append(c, v)
			v++
		}
		bs = append(bs, batchOf(t, []string{"x"}, c))
	}
	return memtable.New(bs[0].Schema(), bs)
}

func scanOf(t testing.TB, src connector.Source, par int) *Scan {
	splits, err := src.Plan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &Scan{Source: src, Splits: splits, Parallelism: par}
}

func TestRunOrderAndObserver(t *testing.T) {
	for _, par := range []int{1, 3, 16} {
		t.Run(fmt.Sprint(par), func(t *testing.T) {
			src := seqTable(t, 50, 3)
			obs := &recObserver{}
			out := NewCollect()
			err := Run(context.Background(), &Stage{Scan: scanOf(t, src, par)}, WatermarkEnd, out, obs)
			if err != nil {
				t.Fatal(err)
			}
			rows := rowsOf(out.Batches())
			for i, r := range rows {
				if r != fmt.Sprint(i) {
					t.Fatalf("row %d is %s: order not kept", i, r)
				}
			}
			if len(rows) != 150 || obs.started != 50 || obs.done != 50 || obs.rows != 150 {
				t.Fatalf("rows=%d obs=%+v", len(rows), obs)
			}
			if wm, ok := out.Watermark(); !ok || wm != WatermarkEnd {
				t.Fatal("no end watermark")
			}
		})
	}
}

func TestRunLimitEarlyExit(t *testing.T) {
	src := &countingSource{Source: seqTable(t, 1000, 10)}
	sc := scanOf(t, src, 4)
	lim := NewLimit(src.Schema(), 15, 0)
	out := NewCollect()
	if err := Run(context.Background(), &Stage{Scan: sc, Ops: []Operator{lim}}, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	if out.NumRows() != 15 {
		t.Fatalf("got %d rows", out.NumRows())
	}
	if n := src.opened.Load(); n > 50 {
		t.Fatalf("opened %d of 1000 splits", n)
	}
	if _, ok := out.Watermark(); !ok {
		t.Fatal("watermark not delivered past the limit")
	}
}

// bufferOp holds rows until the watermark, like Sort.
type bufferOp struct {
	Base
	held   []arrow.RecordBatch
	ended  bool
	schema *arrow.Schema
}

func (b *bufferOp) Schema() *arrow.Schema { return b.schema }
func (b *bufferOp) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	batch.Retain()
	b.held = append(b.held, batch)
	return nil
}
func (b *bufferOp) OnWatermark(ctx context.Context, t int64, out Output) error {
	for _, h := range b.held {
		if err := out.Send(ctx, Message{Batch: h}); err != nil {
			return err
		}
	}
	return out.Send(ctx, Message{Watermark: t})
}
func (b *bufferOp) EndEpoch(ctx context.Context, out Output) error { b.ended = true; return nil }
func (b *bufferOp) String() string                                 { return "Buffer" }

func TestRunLimitAfterBuffer(t *testing.T) {
	src := seqTable(t, 10, 10)
	buf := &bufferOp{schema: src.Schema()}
	after := &bufferOp{schema: src.Schema()}
	out := NewCollect()
	st := &Stage{Scan: scanOf(t, src, 2), Ops: []Operator{buf, NewLimit(src.Schema(), 12, 0), after}}
	if err := Run(context.Background(), st, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	if out.NumRows() != 12 || !after.ended || !buf.ended {
		t.Fatalf("rows=%d ended=%v/%v", out.NumRows(), buf.ended, after.ended)
	}
}

func TestRunUnion(t *testing.T) {
	a, b := seqTable(t, 3, 2), seqTable(t, 2, 1)
	out := NewCollect()
	st := &Stage{
		Inputs: []*Stage{
			{Scan: scanOf(t, a, 2), Ops: []Operator{NewLimit(a.Schema(), 3, 0)}},
			{Scan: scanOf(t, b, 2)},
		},
		Ops: []Operator{NewLimit(a.Schema(), 4, 0)},
	}
	if err := Run(context.Background(), st, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"0", "1", "2", "0"})
	got := Explain(st)
	want := "Limit 4\n  Union\n    Limit 3\n      Scan memory batches=3 rows=6 parallelism=2\n    Scan memory batches=2 rows=2 parallelism=2"
	if got != want {
		t.Fatalf("explain:\n%s\nwant\n%s", got, want)
	}
}

func TestRunLocalOps(t *testing.T) {
	src := seqTable(t, 20, 5)
	sc := scanOf(t, src, 4)
	sc.Local = func() ([]Operator, error) {
		f, err := NewFilter(src.Schema(), tcmp{0, 94})
		return []Operator{f}, err
	}
	out := NewCollect()
	if err := Run(context.Background(), &Stage{Scan: sc}, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"95", "96", "97", "98", "99"})
	if !strings.HasPrefix(Explain(&Stage{Scan: sc}), "Filter (c0 > 94)\n  Scan memory") {
		t.Fatal(Explain(&Stage{Scan: sc}))
	}
}

func TestRunErrors(t *testing.T) {
	src := &countingSource{Source: seqTable(t, 100, 1), failAt: "memory/7"}
	err := Run(context.Background(), &Stage{Scan: scanOf(t, src, 3)}, WatermarkEnd, NewCollect(), nil)
	if err == nil || !strings.Contains(err.Error(), "memory/7") || !strings.Contains(err.Error(), "corrupt data") {
		t.Fatalf("got %v", err)
	}
	f, _ := NewFilter(src.Schema(), tfail{})
	err = Run(context.Background(), &Stage{Scan: scanOf(t, seqTable(t, 5, 1), 2), Ops: []Operator{f}}, WatermarkEnd, NewCollect(), nil)
	if err == nil || !strings.Contains(err.Error(), "memory/0") {
		t.Fatalf("got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Run(ctx, &Stage{Scan: scanOf(t, seqTable(t, 5, 1), 2)}, WatermarkEnd, NewCollect(), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	var _ = io.EOF
}
