package expr

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// lambdaBatch is i INT and a ARRAY<INT>, sliced so that offsets do not
// start at 0: rows (1, [1, 2]), (NULL, [3]), (3, NULL), (4, []).
func lambdaBatch(t *testing.T) arrow.RecordBatch {
	t.Helper()
	i := buildArray(t, types.Int, []any{int32(9), int32(1), nil, int32(3), int32(4)})
	a := buildArray(t, types.Array(types.Int), []any{[]any{int32(7)}, []any{int32(1), int32(2)}, []any{int32(3)}, nil, []any{}})
	s := arrow.NewSchema([]arrow.Field{{Name: "i", Type: types.Int, Nullable: true}, {Name: "a", Type: a.DataType(), Nullable: true}}, nil)
	b := array.NewRecordBatch(s, []arrow.Array{i, a}, 5)
	return b.NewSlice(1, 5)
}

func TestHigherOrder(t *testing.T) {
	batch := lambdaBatch(t)
	arr := col(t, batch, "a")
	s := NewLambdaScope("x", "k")
	x, k := s.Var(0, types.Int), s.Var(1, types.Int)

	plus := mustCall(t, "+", x, col(t, batch, "i"))
	tr, err := HigherOrder("transform", []Expr{arr}, []Lambda{{Scope: s, Body: plus}})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(evalValues(t, tr, batch))
	if want := "[[2 3] [<nil>] <nil> []]"; got != want {
		t.Errorf("transform(a, x -> x + i) = %s, want %s", got, want)
	}
	withIndex, _ := HigherOrder("transform", []Expr{arr}, []Lambda{{Scope: s, Body: mustCall(t, "*", x, k)}})
	if got, want := fmt.Sprint(evalValues(t, withIndex, batch)), "[[0 2] [0] <nil> []]"; got != want {
		t.Errorf("transform(a, (x, k) -> x * k) = %s, want %s", got, want)
	}

	// Pruning sees only the outer columns, and remapping them leaves the
	// parameters alone.
	if got := fmt.Sprint(Columns(tr)); got != "[1 0]" && got != "[0 1]" {
		t.Errorf("Columns(%s) = %s, want a and i only", tr, got)
	}
	swapped := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{batch.Schema().Field(1), batch.Schema().Field(0)}, nil),
		[]arrow.Array{batch.Column(1), batch.Column(0)}, batch.NumRows())
	if got := fmt.Sprint(evalValues(t, Remap(tr, map[int]int{0: 1, 1: 0}), swapped)); got != "[[2 3] [<nil>] <nil> []]" {
		t.Errorf("remapped transform = %s", got)
	}
	body := mustCall(t, "+", x, lit(t, int32(1), types.Int))
	if IsConstant(body) {
		t.Errorf("a lambda body reading its parameter is not constant")
	}

	odd := mustCall(t, "=", mustCall(t, "%", x, lit(t, int32(2), types.Int)), lit(t, int32(1), types.Int))
	f, _ := HigherOrder("filter", []Expr{arr}, []Lambda{{Scope: s, Body: odd}})
	if got, want := fmt.Sprint(evalValues(t, f, batch)), "[[1] [3] <nil> []]"; got != want {
		t.Errorf("filter = %s, want %s", got, want)
	}
	ex, _ := HigherOrder("exists", []Expr{arr}, []Lambda{{Scope: s, Body: odd}})
	check(t, ex, batch, true, true, nil, false)
	fa, _ := HigherOrder("forall", []Expr{arr}, []Lambda{{Scope: s, Body: odd}})
	check(t, fa, batch, false, true, nil, true)

	as := NewLambdaScope("acc", "x")
	sum := mustCall(t, "+", as.Var(0, types.Int), as.Var(1, types.Int))
	agg, _ := HigherOrder("aggregate", []Expr{arr, lit(t, int32(100), types.Int)}, []Lambda{{Scope: as, Body: sum}})
	check(t, agg, batch, int64(103), int64(103), nil, int64(100))
	if _, err := HigherOrder("aggregate", []Expr{arr, lit(t, int64(0), types.BigInt)}, []Lambda{{Scope: as, Body: sum}}); err == nil {
		t.Errorf("aggregate whose merge type differs from its start: no error")
	}

	if _, err := HigherOrder("filter", []Expr{arr}, []Lambda{{Scope: s, Body: plus}}); err == nil {
		t.Errorf("filter with an INT lambda: no error")
	}
}
