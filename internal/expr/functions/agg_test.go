package functions_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// aggregate runs name(args) over rows split into two partials (the first
// snapshotted and restored), merged, all rows in group 0 and every odd
// row also... kept simple: groups[i] given by the caller.
func aggregate(t *testing.T, name string, distinct bool, batch arrow.RecordBatch, groups []uint32, ngroups int, args ...expr.Expr) []any {
	t.Helper()
	a, err := expr.NewAggregate(name, args, distinct)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ctx := context.Background()
	vals := make([]arrow.Array, len(a.Args))
	for i, e := range a.Args {
		v, err := e.Eval(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Release()
		vals[i] = v
	}
	half := len(groups) / 2
	part := func(lo, hi int) []arrow.Array {
		out := make([]arrow.Array, len(vals))
		for i, v := range vals {
			out[i] = array.NewSlice(v, int64(lo), int64(hi))
		}
		return out
	}
	p1, p2 := a.NewAccumulator(), a.NewAccumulator()
	if err := p1.Update(groups[:half], part(0, half)); err != nil {
		t.Fatal(err)
	}
	if err := p2.Update(groups[half:], part(half, len(groups))); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p1.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	r := a.NewAccumulator()
	if err := r.Restore(&buf); err != nil {
		t.Fatal(err)
	}
	ident := make([]uint32, ngroups)
	for i := range ident {
		ident[i] = uint32(i)
	}
	if err := r.Merge(p2, ident); err != nil {
		t.Fatal(err)
	}
	res, err := r.Result(ngroups)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if !arrow.TypeEqual(res.DataType(), a.Type()) {
		t.Fatalf("%s: result %s, Type() %s", a, res.DataType(), a.Type())
	}
	out := make([]any, ngroups)
	for i := range out {
		out[i] = types.ValueAt(res, i)
	}
	return out
}

func TestMoments(t *testing.T) {
	c, b := column(t, types.Double, 2.0, 4.0, nil, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0, 1.0)
	defer b.Release()
	groups := []uint32{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	approx := func(got any, want float64) bool {
		f, ok := got.(float64)
		return ok && math.Abs(f-want) < 1e-9
	}
	// Group 0: 2 4 4 4 5 5 7 9: mean 5, population variance 4.
	if g := aggregate(t, "stddev_pop", false, b, groups, 2, c); !approx(g[0], 2) || g[1] != 0.0 {
		t.Errorf("stddev_pop = %v", g)
	}
	if g := aggregate(t, "var_pop", false, b, groups, 2, c); !approx(g[0], 4) {
		t.Errorf("var_pop = %v", g)
	}
	if g := aggregate(t, "variance", false, b, groups, 2, c); !approx(g[0], 32.0/7) || g[1] != nil {
		t.Errorf("variance = %v (a single value has no sample variance)", g)
	}
	if g := aggregate(t, "stddev", false, b, groups, 2, c); !approx(g[0], math.Sqrt(32.0/7)) {
		t.Errorf("stddev = %v", g)
	}
}

func TestApproxCountDistinctError(t *testing.T) {
	for _, n := range []int{10, 1000, 100000} {
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		for i := 0; i < n; i++ {
			sb.Append(fmt.Sprintf("user-%d", i%(n/2+1))) // n/2+1 distinct, each seen about twice
		}
		arr := sb.NewArray()
		schema := arrow.NewSchema([]arrow.Field{{Name: "u", Type: types.String}}, nil)
		b := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(n))
		groups := make([]uint32, n)
		got := aggregate(t, "approx_count_distinct", false, b, groups, 1, expr.Col(0, "u", types.String))[0].(int64)
		want := float64(n/2 + 1)
		rel := math.Abs(float64(got)-want) / want
		if rel > 0.05 { // 1.6% standard error at 2^12 registers: 5% is three sigma
			t.Errorf("approx_count_distinct over %d distinct = %d (%.2f%% off)", int(want), got, rel*100)
		}
		if n == 10 && got != int64(want) {
			t.Errorf("small sets are exact: got %d, want %d", got, int(want))
		}
		b.Release()
		arr.Release()
	}
}

func TestApproxPercentile(t *testing.T) {
	n := 100000
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	for i := 0; i < n; i++ {
		fb.Append(float64((i * 7919) % n)) // a permutation of 0..n-1
	}
	arr := fb.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: types.Double}}, nil)
	b := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(n))
	defer b.Release()
	groups := make([]uint32, n)
	x := expr.Col(0, "x", types.Double)
	got := aggregate(t, "approx_percentile", false, b, groups, 1, x, F(0.5))[0].(float64)
	if math.Abs(got-float64(n)/2) > float64(n)/100 {
		t.Errorf("median = %v, want about %d", got, n/2)
	}
	ps := L([]any{0.1, 0.9, 1.0}, types.Array(types.Double))
	many := aggregate(t, "percentile_approx", false, b, groups, 1, x, ps)[0].([]any)
	for i, want := range []float64{0.1 * float64(n), 0.9 * float64(n), float64(n - 1)} {
		if math.Abs(many[i].(float64)-want) > float64(n)/100 {
			t.Errorf("percentile %d = %v, want about %v", i, many[i], want)
		}
	}
	if _, err := expr.NewAggregate("approx_percentile", []expr.Expr{x, F(1.5)}, false); err == nil {
		t.Error("percentage 1.5 should fail")
	}
	if _, err := expr.NewAggregate("approx_percentile", []expr.Expr{x, x}, false); err == nil {
		t.Error("a column percentage should fail")
	}
}

// Up to accuracy (10000) values the sketch is exact, as Spark is,
// p = 0 and p = 1 are the exact extremes at any n, and a constant array()
// call is accepted as the list of percentages.
func TestApproxPercentileExact(t *testing.T) {
	for _, n := range []int{1000, 10000, 10001, 50000} {
		fb := array.NewFloat64Builder(memory.DefaultAllocator)
		for i := 0; i < n; i++ {
			fb.Append(float64((i * 7919) % n))
		}
		arr := fb.NewArray()
		schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: types.Double}}, nil)
		b := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(n))
		arr.Release()
		x := expr.Col(0, "x", types.Double)
		ps, err := expr.Call("array", F(0), F(0.25), F(0.5), F(1))
		if err != nil {
			t.Fatal(err)
		}
		got := aggregate(t, "approx_percentile", false, b, make([]uint32, n), 1, x, ps)[0].([]any)
		b.Release()
		if got[0].(float64) != 0 || got[3].(float64) != float64(n-1) {
			t.Errorf("n=%d: min, max = %v, %v, want 0, %d", n, got[0], got[3], n-1)
		}
		if n == 10000 && (got[1].(float64) != 2499 || got[2].(float64) != 4999) {
			t.Errorf("n=10000: p25, p50 = %v, %v, want 2499, 4999 (exact)", got[1], got[2])
		}
	}
}

func TestFirstLastCollect(t *testing.T) {
	c, b := column(t, types.String, nil, "a", "b", "a", nil, "c")
	defer b.Release()
	groups := []uint32{0, 0, 0, 1, 1, 1}
	tests := []struct {
		name     string
		distinct bool
		args     []expr.Expr
		want     []any
	}{
		{"first", false, []expr.Expr{c}, []any{nil, "a"}},
		{"first", false, []expr.Expr{c, L(true, types.Boolean)}, []any{"a", "a"}},
		{"last", false, []expr.Expr{c}, []any{"b", "c"}},
		{"last_value", false, []expr.Expr{c, L(true, types.Boolean)}, []any{"b", "c"}},
		{"collect_list", false, []expr.Expr{c}, []any{[]any{"a", "b"}, []any{"a", "c"}}},
		{"collect_set", false, []expr.Expr{c}, []any{[]any{"a", "b"}, []any{"a", "c"}}},
		{"count", true, []expr.Expr{c}, []any{int64(2), int64(2)}},
		{"approx_count_distinct", false, []expr.Expr{c}, []any{int64(2), int64(2)}},
	}
	for _, tc := range tests {
		got := aggregate(t, tc.name, tc.distinct, b, groups, 3, tc.args...)
		if !reflect.DeepEqual(got[:2], tc.want) {
			t.Errorf("%s = %#v, want %#v", tc.name, got, tc.want)
		}
	}
	// collect_set dedupes across partials too.
	all := []uint32{0, 0, 0, 0, 0, 0}
	got := aggregate(t, "collect_set", false, b, all, 1, c)[0].([]any)
	ss := make([]string, len(got))
	for i, v := range got {
		ss[i] = v.(string)
	}
	sort.Strings(ss)
	if !reflect.DeepEqual(ss, []string{"a", "b", "c"}) {
		t.Errorf("collect_set over partials = %v", ss)
	}
}

func BenchmarkSumGrouped(b *testing.B) {
	n := 8192
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	groups := make([]uint32, n)
	for i := 0; i < n; i++ {
		ib.Append(int64(i))
		groups[i] = uint32(i % 64)
	}
	arr := ib.NewArray()
	defer arr.Release()
	a, err := expr.NewAggregate("sum", []expr.Expr{expr.Col(0, "x", types.BigInt)}, false)
	if err != nil {
		b.Fatal(err)
	}
	acc := a.NewAccumulator()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := acc.Update(groups, []arrow.Array{arr}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
}

func BenchmarkApproxCountDistinct(b *testing.B) {
	n := 8192
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	for i := 0; i < n; i++ {
		ib.Append(int64(i * 31))
	}
	arr := ib.NewArray()
	defer arr.Release()
	groups := make([]uint32, n)
	a, _ := expr.NewAggregate("approx_count_distinct", []expr.Expr{expr.Col(0, "x", types.BigInt)}, false)
	acc := a.NewAccumulator()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := acc.Update(groups, []arrow.Array{arr}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
}
