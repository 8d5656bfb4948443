package functions_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// Comparisons, greatest/least and min/max of arrays and structs follow
// Spark's element-by-element order, not the printed JSON.
func TestNestedOrder(t *testing.T) {
	arr := func(vs ...any) expr.Expr {
		return L(vs, arrow.ListOf(types.BigInt))
	}
	runScalar(t, []scalarCase{
		{"<", []expr.Expr{arr(int64(9)), arr(int64(10))}, true, ""},
		{"<", []expr.Expr{arr(int64(9)), arr(int64(9), int64(1))}, true, ""},
		{"<", []expr.Expr{arr(), arr(nil)}, true, ""},
		{"<", []expr.Expr{arr(nil, int64(5)), arr(int64(1))}, true, ""},
		{">=", []expr.Expr{arr(int64(10)), arr(int64(9), int64(99))}, true, ""},
		{"=", []expr.Expr{arr(int64(1), nil), arr(int64(1), nil)}, true, ""},
		{"=", []expr.Expr{arr(int64(1)), arr(int64(1), int64(2))}, false, ""},
		{"greatest", []expr.Expr{arr(int64(9)), arr(int64(10)), arr(int64(9), int64(1))}, []any{int64(10)}, ""},
		{"least", []expr.Expr{arr(int64(9)), arr(int64(10)), arr(int64(9), int64(1))}, []any{int64(9)}, ""},
		{"<", []expr.Expr{L(map[string]any{"a": int64(1)}, arrow.MapOf(types.String, types.BigInt)), L(map[string]any{"a": int64(2)}, arrow.MapOf(types.String, types.BigInt))}, nil, "has no order"},
	})
	st := types.Struct(arrow.Field{Name: "x", Type: types.BigInt, Nullable: true}, arrow.Field{Name: "y", Type: types.String, Nullable: true})
	runScalar(t, []scalarCase{
		{"<", []expr.Expr{L(map[string]any{"x": int64(9), "y": "z"}, st), L(map[string]any{"x": int64(10), "y": "a"}, st)}, true, ""},
		{"<", []expr.Expr{L(map[string]any{"x": int64(9), "y": nil}, st), L(map[string]any{"x": int64(9), "y": "a"}, st)}, true, ""},
	})
}

func TestNestedMinMax(t *testing.T) {
	lt := arrow.ListOf(types.BigInt)
	col, batch := column(t, lt, []any{int64(9)}, []any{int64(10)}, nil, []any{int64(9), int64(1)}, []any{}, []any{int64(2)})
	defer batch.Release()
	for _, c := range []struct {
		name string
		want []any
	}{
		// group 0 gets [9] [10] [9,1] [], group 1 NULL and [2].
		{"min", []any{[]any{}, []any{int64(2)}}},
		{"max", []any{[]any{int64(10)}, []any{int64(2)}}},
	} {
		a, err := expr.NewAggregate(c.name, []expr.Expr{col}, false)
		if err != nil {
			t.Fatal(err)
		}
		arg, err := a.Args[0].Eval(context.Background(), batch)
		if err != nil {
			t.Fatal(err)
		}
		// Two partial accumulators merged, as parallel workers do.
		p1, p2 := a.NewAccumulator(), a.NewAccumulator()
		if err := p1.Update([]uint32{0, 0, 1}, []arrow.Array{arrSlice(arg, 0, 3)}); err != nil {
			t.Fatal(err)
		}
		if err := p2.Update([]uint32{1, 1, 0}, []arrow.Array{arrSlice(arg, 3, 6)}); err != nil {
			t.Fatal(err)
		}
		if err := p1.Merge(p2, []uint32{1, 0}); err != nil {
			t.Fatal(err)
		}
		res, err := p1.Result(3)
		if err != nil {
			t.Fatal(err)
		}
		got := []any{types.ValueAt(res, 0), types.ValueAt(res, 1)}
		if !reflect.DeepEqual(got, c.want) || !res.IsNull(2) {
			t.Errorf("%s = %v (%v), want %v", c.name, got, types.ValueAt(res, 2), c.want)
		}
		res.Release()
		arg.Release()
	}
	if _, err := expr.NewAggregate("max", []expr.Expr{expr.Col(0, "m", arrow.MapOf(types.String, types.BigInt))}, false); err == nil || !strings.Contains(err.Error(), "has no order") {
		t.Errorf("max(map): %v", err)
	}
}

func arrSlice(a arrow.Array, i, j int64) arrow.Array { return array.NewSlice(a, i, j) }
