package expr

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// runAgg feeds batch's rows, split into two partial accumulators that are
// merged (and one of them snapshotted and restored), and returns the
// result for numGroups groups.
func runAgg(t *testing.T, a *Aggregate, batch arrow.RecordBatch, groups []uint32, numGroups int) []any {
	t.Helper()
	ctx := context.Background()
	args := make([]arrow.Array, len(a.Args))
	for i, e := range a.Args {
		v, err := e.Eval(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Release()
		args[i] = v
	}
	half := len(groups) / 2
	slice := func(lo, hi int) []arrow.Array {
		out := make([]arrow.Array, len(args))
		for i, x := range args {
			out[i] = array.NewSlice(x, int64(lo), int64(hi))
		}
		return out
	}
	p1, p2 := a.NewAccumulator(), a.NewAccumulator()
	if err := p1.Update(groups[:half], slice(0, half)); err != nil {
		t.Fatal(err)
	}
	if err := p2.Update(groups[half:], slice(half, len(groups))); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p1.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	restored := a.NewAccumulator()
	if err := restored.Restore(&buf); err != nil {
		t.Fatal(err)
	}
	ident := make([]uint32, numGroups)
	for i := range ident {
		ident[i] = uint32(i)
	}
	if err := restored.Merge(p2, ident); err != nil {
		t.Fatal(err)
	}
	res, err := restored.Result(numGroups)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if !arrow.TypeEqual(res.DataType(), a.Type()) {
		t.Fatalf("%s: result %s, Type() %s", a, res.DataType(), a.Type())
	}
	return values(res)
}

func TestAggregates(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	// Rows 0 and 2 in group 0, row 1 in group 1, row 3 in group 0; group 2 is empty.
	groups := []uint32{0, 1, 0, 0}
	dec, err := Cast(col(t, b, "d"), types.Decimal(10, 2))
	if err != nil {
		t.Fatal(err)
	}
	dateOf, err := Cast(col(t, b, "t"), types.Date)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []Expr
		distinct bool
		str      string
		typ      string
		want     []any
	}{
		{"count", nil, false, "count(*)", "BIGINT", []any{int64(3), int64(1), int64(0)}},
		{"count", []Expr{col(t, b, "i")}, false, "count(i)", "BIGINT", []any{int64(2), int64(1), int64(0)}},
		{"COUNT", []Expr{mustCall(t, "%", col(t, b, "b"), lit(t, int64(20), types.BigInt))}, true, "count(DISTINCT (b % 20))", "BIGINT", []any{int64(1), int64(1), int64(0)}},
		{"sum", []Expr{col(t, b, "i")}, false, "sum(i)", "BIGINT", []any{int64(5), int64(2), nil}},
		{"sum", []Expr{col(t, b, "d")}, false, "sum(d)", "DOUBLE", []any{-0.5, nil, nil}},
		{"sum", []Expr{dec}, false, "sum(CAST(d AS DECIMAL(10,2)))", "DECIMAL(20,2)", []any{"-0.50", nil, nil}},
		{"avg", []Expr{col(t, b, "b")}, false, "avg(b)", "DOUBLE", []any{20.0, 20.0, nil}},
		{"avg", []Expr{dec}, false, "avg(CAST(d AS DECIMAL(10,2)))", "DECIMAL(14,6)", []any{"-0.166667", nil, nil}},
		{"min", []Expr{col(t, b, "s")}, false, "min(s)", "STRING", []any{"apple", "Banana", nil}},
		{"max", []Expr{col(t, b, "s")}, false, "max(s)", "STRING", []any{"cherry pie", "Banana", nil}},
		{"max", []Expr{col(t, b, "t")}, false, "max(t)", "TIMESTAMP", []any{ts("2024-01-01 00:00:00"), ts("2024-06-15 12:30:00"), nil}},
		{"min", []Expr{col(t, b, "d")}, false, "min(d)", "DOUBLE", []any{-2.0, nil, nil}},
		{"min", []Expr{col(t, b, "ok")}, false, "min(ok)", "BOOLEAN", []any{true, false, nil}},
		{"sum", []Expr{col(t, b, "b")}, true, "sum(DISTINCT b)", "BIGINT", []any{int64(40), int64(20), nil}},
		{"max", []Expr{dec}, false, "max(CAST(d AS DECIMAL(10,2)))", "DECIMAL(10,2)", []any{"1.50", nil, nil}},
		{"min", []Expr{dateOf}, false, "min(CAST(t AS DATE))", "DATE", []any{"2023-12-31", "2024-06-15", nil}},
		{"every", []Expr{col(t, b, "ok")}, false, "bool_and(ok)", "BOOLEAN", []any{true, false, nil}},
		{"approx_count_distinct", []Expr{col(t, b, "i")}, false, "approx_count_distinct(i)", "BIGINT", []any{int64(2), int64(1), int64(0)}},
		{"collect_list", []Expr{col(t, b, "i")}, false, "collect_list(i)", "ARRAY<INT>", []any{[]any{int64(1), int64(4)}, []any{int64(2)}, []any{}}},
		{"stddev_pop", []Expr{col(t, b, "i")}, false, "stddev_pop(i)", "DOUBLE", []any{1.5, 0.0, nil}},
		{"count_if", []Expr{col(t, b, "ok")}, false, "count_if(ok)", "BIGINT", []any{int64(2), int64(0), int64(0)}},
		{"bool_or", []Expr{mustCall(t, ">", col(t, b, "d"), lit(t, 1.0, types.Double))}, false, "bool_or((d > 1.0))", "BOOLEAN", []any{true, nil, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.str, func(t *testing.T) {
			a, err := NewAggregate(tc.name, tc.args, tc.distinct)
			if err != nil {
				t.Fatal(err)
			}
			if a.String() != tc.str {
				t.Errorf("String() = %q, want %q", a.String(), tc.str)
			}
			if got := types.SQLName(a.Type()); got != tc.typ {
				t.Errorf("Type() = %s, want %s", got, tc.typ)
			}
			if got := runAgg(t, a, b, groups, 3); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestAggregateErrors(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	tests := []struct {
		name string
		args []Expr
		want string
	}{
		{"sum", []Expr{col(t, b, "s")}, "sum expects a numeric argument, got STRING"},
		{"sum", nil, "function sum expects 1 argument, got 0"},
		{"like", []Expr{col(t, b, "s")}, "like is not an aggregate function"},
		{"nope", nil, "unknown aggregate function nope"},
	}
	for _, tc := range tests {
		_, err := NewAggregate(tc.name, tc.args, false)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewAggregate(%s): %v, want %q", tc.name, err, tc.want)
		}
	}
}
