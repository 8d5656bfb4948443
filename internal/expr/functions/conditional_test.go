package functions_test

import (
	"testing"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func TestConditionalFunctions(t *testing.T) {
	i32 := func(v int32) expr.Expr { return L(v, types.Int) }
	runScalar(t, []scalarCase{
		{"coalesce", []expr.Expr{Null(), i32(2), I(3)}, int64(2), ""},
		{"coalesce", []expr.Expr{Null(), Null()}, nil, ""},
		{"coalesce", []expr.Expr{Null(), F(1.5), i32(1)}, 1.5, ""},
		{"coalesce", []expr.Expr{S("a"), L([]any{"x"}, types.Array(types.String))}, nil, "cannot combine"},
		{"ifnull", []expr.Expr{Null(), S("d")}, "d", ""},
		{"nvl", []expr.Expr{S("v"), S("d")}, "v", ""},
		{"nullif", []expr.Expr{i32(1), I(1)}, nil, ""},
		{"nullif", []expr.Expr{i32(1), I(2)}, int64(1), ""},
		{"if", []expr.Expr{L(true, types.Boolean), S("y"), S("n")}, "y", ""},
		{"if", []expr.Expr{Null(), S("y"), S("n")}, "n", ""},
		{"if", []expr.Expr{I(1), S("y"), S("n")}, nil, "expects BOOLEAN"},
		{"greatest", []expr.Expr{i32(1), Null(), I(7), i32(3)}, int64(7), ""},
		{"least", []expr.Expr{S("b"), S("a"), Null()}, "a", ""},
		{"least", []expr.Expr{Null(), Null()}, nil, ""},
		{"greatest", []expr.Expr{TS("2024-01-01 00:00:00"), S("2025-01-01")}, tm("2025-01-01"), ""},
		{"typeof", []expr.Expr{L(nil, types.Decimal(5, 2))}, "decimal(5,2)", ""},
	})
	// Over a column: each row picks its own branch.
	c, b := column(t, types.BigInt, int64(1), nil, int64(3))
	defer b.Release()
	got, _, err := call(t, b, "coalesce", c, I(0))
	if err != nil || !eq(got, []any{int64(1), int64(0), int64(3)}) {
		t.Errorf("coalesce(c, 0) = %v, %v", got, err)
	}
	gt, _ := expr.Call(">", c, I(1))
	got, _, err = call(t, b, "if", gt, S("big"), S("small"))
	if err != nil || !eq(got, []any{"small", "small", "big"}) {
		t.Errorf("if(c > 1, ...) = %v, %v", got, err)
	}
	got, _, err = call(t, b, "greatest", c, I(2))
	if err != nil || !eq(got, []any{int64(2), int64(2), int64(3)}) {
		t.Errorf("greatest(c, 2) = %v, %v", got, err)
	}
}
