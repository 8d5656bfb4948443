package functions_test

import (
	"math"
	"testing"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func TestMathFunctions(t *testing.T) {
	dec := func(s string, p, sc int32) expr.Expr { return L(s, types.Decimal(p, sc)) }
	i32 := func(v int32) expr.Expr { return L(v, types.Int) }
	runScalar(t, []scalarCase{
		{"abs", []expr.Expr{i32(-3)}, int64(3), ""},
		{"abs", []expr.Expr{F(-2.5)}, 2.5, ""},
		{"abs", []expr.Expr{dec("-1.50", 5, 2)}, "1.50", ""},
		{"abs", []expr.Expr{Null()}, nil, ""},
		{"abs", []expr.Expr{S("x")}, nil, "function abs expects a number, got STRING"},
		{"round", []expr.Expr{F(2.5)}, 3.0, ""},
		{"round", []expr.Expr{F(-2.5)}, -3.0, ""},
		{"round", []expr.Expr{F(3.14159), i32(2)}, 3.14, ""},
		{"round", []expr.Expr{I(1250), i32(-2)}, int64(1300), ""},
		{"round", []expr.Expr{dec("1.255", 6, 3), i32(2)}, "1.26", ""},
		{"round", []expr.Expr{dec("-2.5", 2, 1)}, "-3", ""},
		{"round", []expr.Expr{dec("2.5", 2, 1)}, "3", ""},
		{"round", []expr.Expr{dec("3.14159", 6, 5), i32(2)}, "3.14", ""},
		{"round", []expr.Expr{dec("123.456", 6, 3), i32(-1)}, "120", ""},
		{"round", []expr.Expr{dec("-155.5", 4, 1), i32(-2)}, "-200", ""},
		{"round", []expr.Expr{dec("125", 3, 0), i32(-1)}, "130", ""},
		{"round", []expr.Expr{F(125), i32(-1)}, 130.0, ""},
		{"round", []expr.Expr{I(125), i32(-30)}, int64(0), ""},
		{"bround", []expr.Expr{F(2.5)}, 2.0, ""},
		{"bround", []expr.Expr{F(3.5)}, 4.0, ""},
		{"bround", []expr.Expr{I(125), i32(-1)}, int64(120), ""},
		{"bround", []expr.Expr{I(-135), i32(-1)}, int64(-140), ""},
		{"bround", []expr.Expr{dec("2.5", 2, 1)}, "2", ""},
		{"bround", []expr.Expr{dec("-0.125", 4, 3), i32(2)}, "-0.12", ""},
		{"bround", []expr.Expr{dec("0.135", 4, 3), i32(2)}, "0.14", ""},
		{"bround", []expr.Expr{dec("0.1251", 5, 4), i32(2)}, "0.13", ""},
		{"bround", []expr.Expr{dec("125.5", 4, 1), i32(-1)}, "130", ""},
		{"bround", []expr.Expr{dec("125", 3, 0), i32(-1)}, "120", ""},
		{"floor", []expr.Expr{dec("-1.2", 2, 1)}, "-2", ""},
		{"floor", []expr.Expr{F(-1.5)}, int64(-2), ""},
		{"ceil", []expr.Expr{F(1.2)}, int64(2), ""},
		{"ceiling", []expr.Expr{i32(7)}, int64(7), ""},
		{"floor", []expr.Expr{dec("-1.50", 5, 2)}, "-2", ""},
		{"ceil", []expr.Expr{dec("1.01", 5, 2)}, "2", ""},
		{"mod", []expr.Expr{I(-7), I(3)}, int64(-1), ""},
		{"mod", []expr.Expr{I(7), I(0)}, nil, "division by zero in mod(7, 0): 7 % 0 (try_mod gives NULL instead)"},
		{"power", []expr.Expr{I(2), I(10)}, 1024.0, ""},
		{"pow", []expr.Expr{F(4), F(0.5)}, 2.0, ""},
		{"sqrt", []expr.Expr{I(16)}, 4.0, ""},
		{"ln", []expr.Expr{F(math.E)}, 1.0, ""},
		{"ln", []expr.Expr{I(0)}, nil, ""},
		{"log10", []expr.Expr{I(1000)}, 3.0, ""},
		{"log2", []expr.Expr{I(8)}, 3.0, ""},
		{"log", []expr.Expr{I(2), I(8)}, 3.0, ""},
		{"exp", []expr.Expr{I(0)}, 1.0, ""},
		{"sign", []expr.Expr{F(-4)}, -1.0, ""},
		{"signum", []expr.Expr{I(0)}, 0.0, ""},
	})
}
