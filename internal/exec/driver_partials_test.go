package exec

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

// floatTable has n one-batch splits of `per` rows (k = i*7 % mod, x a
// DOUBLE whose sums round differently in another grouping).
func floatTable(t testing.TB, n, per, mod int) *memtable.Table {
	var bs []arrow.RecordBatch
	i := int64(0)
	for s := 0; s < n; s++ {
		var ks, xs []any
		for j := 0; j < per; j++ {
			ks = append(ks, i*7%int64(mod))
			xs = append(xs, float64(i%1000)/7+0.1)
			i++
		}
		bs = append(bs, batchOf(t, []string{"k", "x"}, ks, xs))
	}
	return memtable.New(bs[0].Schema(), bs)
}

func floatAggregate(t testing.TB) *HashAggregate {
	x := tcol{1, arrow.PrimitiveTypes.Float64}
	p, err := expr.Lit(0.9, arrow.PrimitiveTypes.Float64)
	if err != nil {
		t.Fatal(err)
	}
	var aggs []*expr.Aggregate
	for _, c := range []struct {
		name string
		args []expr.Expr
	}{{"count", nil}, {"approx_percentile", []expr.Expr{x, p}}, {"avg", []expr.Expr{x}}} {
		a, err := expr.NewAggregate(c.name, c.args, false)
		if err != nil {
			t.Fatal(err)
		}
		aggs = append(aggs, a)
	}
	h, err := NewHashAggregate([]expr.Expr{tcol{0, arrow.PrimitiveTypes.Int64}}, []string{"k", "n", "p90", "mean"}, aggs)
	if err != nil {
		t.Fatal(err)
	}
	if h.AnyOrder() || !h.MergesInOrder() {
		t.Fatal("avg of DOUBLE and approx_percentile should merge in order but not take any order")
	}
	return h
}

// runInOrder runs floatAggregate over tab, with workers folding
// partials when merge; when slow the first split is held back until
// another worker has read ahead (or 50 ms passed).
func runInOrder(t *testing.T, tab *memtable.Table, merge, slow bool) []string {
	t.Helper()
	gs := &gatedSource{Source: tab, gate: make(chan struct{})}
	sc := scanOf(t, gs, 3)
	sc.MergeInOrder = merge
	gs.slow = sc.Splits[0].ID()
	if slow {
		go func() {
			for i := 0; i < 50 && gs.read.Load() < 2; i++ {
				time.Sleep(time.Millisecond)
			}
			close(gs.gate)
		}()
	} else {
		close(gs.gate)
	}
	out := NewCollect()
	if err := Run(context.Background(), &Stage{Scan: sc, Ops: []Operator{floatAggregate(t)}}, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	return rowsOf(out.Batches())
}

// Workers folding their splits into partials merged in split order give
// the groups, counts and percentiles of row-by-row folding, in the same
// order, and averages equal up to rounding; the same bytes however the
// workers are timed.
func TestInOrderPartialsGiveTheOrderedResult(t *testing.T) {
	for _, mod := range []int{7, 3 * maxPartialGroups, 1 << 30} {
		tab := floatTable(t, 12, 5000, mod)
		want := runInOrder(t, tab, false, false)
		got := runInOrder(t, tab, true, false)
		if len(got) != len(want) {
			t.Fatalf("mod %d: %d groups, want %d", mod, len(got), len(want))
		}
		for i := range got {
			g, w := strings.Split(got[i], ","), strings.Split(want[i], ",")
			if !slices.Equal(g[:3], w[:3]) {
				t.Fatalf("mod %d row %d: %s, want %s", mod, i, got[i], want[i])
			}
			gm, _ := strconv.ParseFloat(g[3], 64)
			wm, _ := strconv.ParseFloat(w[3], 64)
			if math.Abs(gm-wm) > 1e-12*math.Abs(wm) {
				t.Fatalf("mod %d row %d: mean %s, want %s", mod, i, g[3], w[3])
			}
		}
		t.Logf("mod %d: byte-identical to row-by-row: %v", mod, slices.Equal(got, want))
		for range 3 {
			if again := runInOrder(t, tab, true, true); !slices.Equal(again, got) {
				t.Fatalf("mod %d: another timing gave\n%v\nwant\n%v", mod, head(again), head(got))
			}
		}
	}
}
