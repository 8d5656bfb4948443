package functions_test

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// Overflow and division by zero are errors naming the expression (Spark
// 4's ANSI mode); the try_ functions give NULL instead.
func TestANSIArithmetic(t *testing.T) {
	i32 := func(v int32) expr.Expr { return L(v, types.Int) }
	dec := func(s string, p, sc int32) expr.Expr { return L(s, types.Decimal(p, sc)) }
	date := func(s string) expr.Expr { return L(s, types.Date) }
	const maxI, minI = math.MaxInt64, math.MinInt64
	runScalar(t, []scalarCase{
		{"+", []expr.Expr{I(maxI), I(1)}, nil, "arithmetic overflow in (9223372036854775807 + 1): 9223372036854775807 + 1 does not fit in BIGINT (try_add gives NULL instead)"},
		{"+", []expr.Expr{I(minI), I(-1)}, nil, "-9223372036854775808 + -1 does not fit in BIGINT"},
		{"+", []expr.Expr{I(maxI), I(minI)}, int64(-1), ""},
		{"try_add", []expr.Expr{I(maxI), I(1)}, nil, ""},
		{"try_add", []expr.Expr{I(40), I(2)}, int64(42), ""},
		{"-", []expr.Expr{I(minI), I(1)}, nil, "arithmetic overflow in (-9223372036854775808 - 1)"},
		{"-", []expr.Expr{I(0), I(minI)}, nil, "0 - -9223372036854775808 does not fit in BIGINT"},
		{"-", []expr.Expr{I(-1), I(maxI)}, int64(minI), ""},
		{"try_subtract", []expr.Expr{I(minI), I(1)}, nil, ""},
		{"*", []expr.Expr{I(maxI), I(2)}, nil, "9223372036854775807 * 2 does not fit in BIGINT (try_multiply gives NULL instead)"},
		{"*", []expr.Expr{I(minI), I(-1)}, nil, "does not fit in BIGINT"},
		{"*", []expr.Expr{I(3037000500), I(3037000500)}, nil, "does not fit in BIGINT"},
		{"*", []expr.Expr{I(3037000499), I(3037000499)}, int64(9223372030926249001), ""},
		{"*", []expr.Expr{I(minI), I(1)}, int64(minI), ""},
		{"*", []expr.Expr{I(-4611686018427387904), I(2)}, int64(minI), ""},
		{"try_multiply", []expr.Expr{I(maxI), I(maxI)}, nil, ""},
		{"+", []expr.Expr{i32(math.MaxInt32), i32(1)}, nil, "2147483647 + 1 does not fit in INT"},
		{"*", []expr.Expr{i32(65536), i32(32768)}, nil, "does not fit in INT"},
		{"*", []expr.Expr{i32(-65536), i32(32768)}, int64(math.MinInt32), ""},
		{"negate", []expr.Expr{I(minI)}, nil, "arithmetic overflow in (- -9223372036854775808): -(-9223372036854775808) does not fit in BIGINT"},
		{"negate", []expr.Expr{i32(math.MinInt32)}, nil, "does not fit in INT"},
		{"negate", []expr.Expr{I(maxI)}, int64(-maxI), ""},
		{"abs", []expr.Expr{I(minI)}, nil, "arithmetic overflow in abs(-9223372036854775808): abs(-9223372036854775808) does not fit in BIGINT"},
		{"abs", []expr.Expr{i32(math.MinInt32)}, nil, "abs(-2147483648) does not fit in INT"},
		{"abs", []expr.Expr{I(-maxI)}, int64(maxI), ""},
		{"/", []expr.Expr{I(1), I(0)}, nil, "division by zero in (1.0 / 0.0): 1 / 0 (try_divide gives NULL instead)"},
		{"/", []expr.Expr{F(1), F(0)}, nil, "division by zero"},
		{"try_divide", []expr.Expr{I(1), I(0)}, nil, ""},
		{"try_divide", []expr.Expr{I(1), I(2)}, 0.5, ""},
		{"%", []expr.Expr{I(7), I(0)}, nil, "division by zero in (7 % 0)"},
		{"%", []expr.Expr{I(minI), I(-1)}, int64(0), ""},
		{"try_mod", []expr.Expr{I(7), I(0)}, nil, ""},
		{"try_mod", []expr.Expr{I(-7), I(3)}, int64(-1), ""},
		// DECIMAL: past the result's precision, or by zero.
		{"+", []expr.Expr{dec("99999999999999999999999999999999999999", 38, 0), dec("1", 38, 0)}, nil, "does not fit in DECIMAL(38,0)"},
		{"try_add", []expr.Expr{dec("99999999999999999999999999999999999999", 38, 0), dec("1", 38, 0)}, nil, ""},
		{"*", []expr.Expr{dec("99999999999999999999", 38, 0), dec("99999999999999999999", 38, 0)}, nil, "does not fit in DECIMAL(38,0)"},
		{"/", []expr.Expr{dec("1.5", 2, 1), dec("0", 1, 0)}, nil, "division by zero in (1.5 / 0): 1.5 / 0"},
		{"try_divide", []expr.Expr{dec("1.5", 2, 1), dec("0", 1, 0)}, nil, ""},
		{"%", []expr.Expr{dec("1.5", 2, 1), dec("0", 1, 0)}, nil, "division by zero"},
		// A capped result precision takes scale away: the sum is rescaled.
		{"+", []expr.Expr{dec("1.5", 38, 10), dec("1", 38, 0)}, "2.500000", ""},
		{"-", []expr.Expr{dec("1.5", 38, 10), dec("1", 38, 0)}, "0.500000", ""},
		// Dates and timestamps past their range.
		{"+", []expr.Expr{date("2020-01-01"), i32(math.MaxInt32)}, nil, "does not fit in DATE"},
		{"try_add", []expr.Expr{date("2020-01-01"), i32(math.MaxInt32)}, nil, ""},
		{"-", []expr.Expr{TS("9999-01-01"), TS("1000-01-01")}, nil, "does not fit in INTERVAL"},
		// Rounding and floor/ceil that leave the type.
		{"round", []expr.Expr{I(maxI), i32(-1)}, nil, "round(9223372036854775807, -1) does not fit in BIGINT"},
		{"round", []expr.Expr{i32(math.MaxInt32), i32(-1)}, nil, "does not fit in INT"},
		{"round", []expr.Expr{i32(math.MaxInt32), i32(-2)}, int64(2147483600), ""},
		{"floor", []expr.Expr{F(1e30)}, nil, "floor(1e+30) does not fit in BIGINT"},
		{"ceil", []expr.Expr{F(-1e19)}, nil, "does not fit in BIGINT"},
		{"floor", []expr.Expr{F(-0x1p63)}, int64(minI), ""},
	})
}

// The whole-array checks must not trip on NULL rows, whatever their
// slots hold, and must find an overflow at any position.
func TestANSIVectorNulls(t *testing.T) {
	const maxI = math.MaxInt64
	b := array.NewInt64Builder(memory.DefaultAllocator)
	vals := make([]int64, 100)
	valid := make([]bool, 100)
	for i := range vals {
		vals[i], valid[i] = int64(i), true
	}
	vals[7], valid[7] = maxI, false // NULL, but its slot would overflow
	vals[8], valid[8] = 0, false    // NULL divisor
	b.AppendValues(vals, valid)
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: types.BigInt, Nullable: true}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{arr}, 100)
	defer batch.Release()
	x := expr.Col(0, "x", types.BigInt)
	for _, op := range []string{"+", "*", "-"} {
		got, _, err := call(t, batch, op, x, I(1))
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if got[7] != nil || got[99] == nil {
			t.Errorf("%s: %v %v", op, got[7], got[99])
		}
	}
	if _, _, err := call(t, batch, "%", I(5), x); err == nil || !strings.Contains(err.Error(), "(5 % x): 5 % 0") {
		t.Errorf("5 %% x: %v, want division by zero at row 0", err)
	}
	got, _, err := call(t, batch, "try_mod", I(5), x)
	if err != nil || got[0] != nil || got[8] != nil || got[2] != int64(1) {
		t.Errorf("try_mod: %v %v", got[:10], err)
	}
	// An overflow at the last row, the rest fine.
	got, _, err = call(t, batch, "try_add", x, I(maxI-98))
	if err != nil || got[99] != nil || got[98] != int64(maxI) {
		t.Errorf("try_add: %v %v", got[95:], err)
	}
	if _, _, err := call(t, batch, "+", x, I(maxI-98)); err == nil || !strings.Contains(err.Error(), "(x + 9223372036854775709): 99 + 9223372036854775709 does not fit in BIGINT") {
		t.Errorf("x + ...: %v", err)
	}
}

// sum fails when a BIGINT group's sum leaves BIGINT; try_sum gives NULL
// for that group only. avg sums in DOUBLE and cannot overflow.
func TestANSISum(t *testing.T) {
	col, batch := column(t, types.BigInt, int64(math.MaxInt64), int64(1), int64(5))
	defer batch.Release()
	groups := []uint32{0, 0, 1}
	run := func(name string) (arrow.Array, error) {
		a, err := expr.NewAggregate(name, []expr.Expr{col}, false)
		if err != nil {
			t.Fatal(err)
		}
		acc := a.NewAccumulator()
		arg, err := a.Args[0].Eval(context.Background(), batch)
		if err != nil {
			t.Fatal(err)
		}
		defer arg.Release()
		if err := acc.Update(groups, []arrow.Array{arg}); err != nil {
			return nil, err
		}
		return acc.Result(2)
	}
	if _, err := run("sum"); err == nil || !strings.Contains(err.Error(), "arithmetic overflow: 9223372036854775807 + 1 does not fit in BIGINT (try_sum gives NULL instead)") {
		t.Errorf("sum: %v", err)
	}
	res, err := run("try_sum")
	if err != nil {
		t.Fatal(err)
	}
	if got := []any{types.ValueAt(res, 0), types.ValueAt(res, 1)}; !reflect.DeepEqual(got, []any{nil, int64(5)}) {
		t.Errorf("try_sum = %v", got)
	}
	res.Release()
	res, err = run("avg")
	if err != nil || types.ValueAt(res, 0) != float64(math.MaxInt64)/2 {
		t.Errorf("avg = %v, %v", types.ValueAt(res, 0), err)
	}
	res.Release()

	// Merging partial sums checks too.
	a, _ := expr.NewAggregate("sum", []expr.Expr{col}, false)
	p1, p2 := a.NewAccumulator(), a.NewAccumulator()
	if err := p1.Update([]uint32{0}, []arrow.Array{array.NewSlice(batch.Column(0), 0, 1)}); err != nil {
		t.Fatal(err)
	}
	if err := p2.Update([]uint32{0}, []arrow.Array{array.NewSlice(batch.Column(0), 1, 2)}); err != nil {
		t.Fatal(err)
	}
	if err := p1.Merge(p2, []uint32{0}); err == nil || !strings.Contains(err.Error(), "does not fit in BIGINT") {
		t.Errorf("merge: %v", err)
	}

	// DECIMAL: a sum past the result's precision.
	dcol, dbatch := column(t, types.Decimal(38, 0), "99999999999999999999999999999999999999", "99999999999999999999999999999999999999")
	defer dbatch.Release()
	for _, name := range []string{"sum", "try_sum"} {
		a, err := expr.NewAggregate(name, []expr.Expr{dcol}, false)
		if err != nil {
			t.Fatal(err)
		}
		acc := a.NewAccumulator()
		if err := acc.Update([]uint32{0, 0}, []arrow.Array{dbatch.Column(0)}); err != nil {
			t.Fatal(err)
		}
		res, err := acc.Result(1)
		if name == "sum" {
			if err == nil || !strings.Contains(err.Error(), "does not fit in DECIMAL(38,0)") {
				t.Errorf("decimal sum: %v", err)
			}
			continue
		}
		if err != nil || types.ValueAt(res, 0) != nil {
			t.Errorf("decimal try_sum: %v %v", types.ValueAt(res, 0), err)
		}
	}
}

// Functions that narrow a value check it too.
func TestANSINarrowingFunctions(t *testing.T) {
	date := func(s string) expr.Expr { return L(s, types.Date) }
	runScalar(t, []scalarCase{
		{"date_add", []expr.Expr{date("2020-01-01"), I(math.MaxInt32)}, nil, "date_add(2020-01-01, 2147483647) does not fit in DATE"},
		{"date_sub", []expr.Expr{date("2020-01-01"), I(math.MinInt64)}, nil, "does not fit in DATE"},
		{"date_add", []expr.Expr{date("2020-01-01"), I(1)}, "2020-01-02", ""},
		{"from_unixtime", []expr.Expr{I(math.MaxInt64)}, nil, "does not fit in TIMESTAMP"},
	})
	for _, c := range []struct {
		in   string
		want any
	}{
		{"9223372036854775807", int64(math.MaxInt64)},
		{"-9223372036854775808", int64(math.MinInt64)},
		{"9223372036854775808", nil},
		{"-9223372036854775809", nil},
		{"1e19", nil},
		{"9.2e18", int64(9200000000000000000)},
	} {
		e, err := expr.TryCast(S(c.in), types.BigInt)
		if err != nil {
			t.Fatal(err)
		}
		v, err := expr.EvalScalar(context.Background(), e)
		if err != nil || !reflect.DeepEqual(v, c.want) {
			t.Errorf("TRY_CAST(%q AS BIGINT) = %v, %v; want %v", c.in, v, err, c.want)
		}
	}
}
