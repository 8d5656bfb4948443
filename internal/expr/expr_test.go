package expr

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

func TestOperators(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	i, bi, d, s, tsc, ok := col(t, b, "i"), col(t, b, "b"), col(t, b, "d"), col(t, b, "s"), col(t, b, "t"), col(t, b, "ok")
	zero := lit(t, int32(0), types.Int)
	tests := []struct {
		name string
		e    Expr
		typ  arrow.DataType
		want []any
	}{
		{"int+bigint widens", mustCall(t, "+", i, bi), types.BigInt, []any{int64(11), int64(22), nil, nil}},
		{"int*int stays int", mustCall(t, "*", i, i), types.Int, []any{int64(1), int64(4), nil, int64(16)}},
		{"int/int is double", mustCall(t, "/", i, lit(t, int32(2), types.Int)), types.Double, []any{0.5, 1.0, nil, 2.0}},
		{"try_divide by zero is NULL", mustCall(t, "try_divide", i, zero), types.Double, []any{nil, nil, nil, nil}},
		{"try_mod by zero is NULL", mustCall(t, "try_mod", i, zero), types.Int, []any{nil, nil, nil, nil}},
		{"modulo", mustCall(t, "%", bi, lit(t, int64(7), types.BigInt)), types.BigInt, []any{int64(3), int64(6), int64(2), nil}},
		{"double minus int", mustCall(t, "-", d, i), types.Double, []any{0.5, nil, nil, -4.0}},
		{"negate", mustCall(t, "negate", d), types.Double, []any{-1.5, nil, 2.0, -0.0}},
		{"int = literal", mustCall(t, "=", i, lit(t, int64(2), types.BigInt)), types.Boolean, []any{false, true, nil, false}},
		{"string literal cast to number", mustCall(t, ">", i, lit(t, "1", types.String)), types.Boolean, []any{false, true, nil, true}},
		{"string < string", mustCall(t, "<", s, lit(t, "b", types.String)), types.Boolean, []any{true, true, nil, false}},
		{"timestamp vs string literal", mustCall(t, ">=", tsc, lit(t, "2024-01-01", types.String)), types.Boolean, []any{true, true, nil, false}},
		{"null-safe equality", mustCall(t, "<=>", i, lit(t, nil, types.Null)), types.Boolean, []any{false, false, true, false}},
		{"AND three-valued", mustCall(t, "and", ok, mustCall(t, ">", i, zero)), types.Boolean, []any{true, false, nil, true}},
		{"NULL AND FALSE is FALSE", mustCall(t, "and", lit(t, nil, types.Null), mustCall(t, "=", d, zero)), types.Boolean, []any{false, nil, false, nil}},
		{"NULL OR TRUE is TRUE", mustCall(t, "or", lit(t, nil, types.Boolean), ok), types.Boolean, []any{true, nil, nil, true}},
		{"NOT", mustCall(t, "not", ok), types.Boolean, []any{false, true, nil, false}},
		{"is_null", mustCall(t, "is_null", s), types.Boolean, []any{false, false, true, false}},
		{"is_not_null", mustCall(t, "IS_NOT_NULL", s), types.Boolean, []any{true, true, false, true}},
		{"is_true", mustCall(t, "is_true", ok), types.Boolean, []any{true, false, false, true}},
		{"is_false", mustCall(t, "is_false", ok), types.Boolean, []any{false, true, false, false}},
		{"between", mustCall(t, "between", bi, lit(t, int32(15), types.Int), lit(t, int32(30), types.Int)), types.Boolean, []any{false, true, true, nil}},
		{"timestamp + interval", mustCall(t, "+", tsc, lit(t, "1 day 2 hours", types.Interval)), types.Timestamp,
			[]any{ts("2024-01-02 02:00:00"), ts("2024-06-16 14:30:00"), nil, ts("2024-01-02 01:59:59")}},
		{"timestamp - interval month", mustCall(t, "-", tsc, lit(t, "1 month", types.Interval)), types.Timestamp,
			[]any{ts("2023-12-01 00:00:00"), ts("2024-05-15 12:30:00"), nil, ts("2023-11-30 23:59:59")}},
		{"like prefix", mustCall(t, "like", s, lit(t, "a%", types.String)), types.Boolean, []any{true, false, nil, false}},
		{"like underscore", mustCall(t, "like", s, lit(t, "_anana", types.String)), types.Boolean, []any{false, true, nil, false}},
		{"ilike", mustCall(t, "ilike", s, lit(t, "b%", types.String)), types.Boolean, []any{false, true, nil, false}},
		{"rlike", mustCall(t, "rlike", s, lit(t, "y\\s?p", types.String)), types.Boolean, []any{false, false, nil, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !arrow.TypeEqual(tc.e.Type(), tc.typ) {
				t.Fatalf("type %s, want %s", types.SQLName(tc.e.Type()), types.SQLName(tc.typ))
			}
			check(t, tc.e, b, tc.want...)
		})
	}
}

func TestDecimalArithmetic(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	x := lit(t, "12.50", types.Decimal(5, 2))
	y := lit(t, "0.125", types.Decimal(4, 3))
	tests := []struct {
		op   string
		typ  string
		want string
	}{
		{"+", "DECIMAL(7,3)", "12.625"},
		{"-", "DECIMAL(7,3)", "12.375"},
		{"*", "DECIMAL(10,5)", "1.56250"},
		{"/", "DECIMAL(13,7)", "100.0000000"},
	}
	for _, tc := range tests {
		e := mustCall(t, tc.op, x, y)
		if got := types.SQLName(e.Type()); got != tc.typ {
			t.Errorf("%s type %s, want %s", e, got, tc.typ)
		}
		got := evalValues(t, e, b)[0]
		if got != tc.want {
			t.Errorf("%s = %v, want %s", e, got, tc.want)
		}
	}
	// DECIMAL + INT widens the INT.
	e := mustCall(t, "+", x, col(t, b, "i"))
	check(t, e, b, "13.50", "14.50", nil, "16.50")
}

func TestCallErrors(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	s, i, tsc := col(t, b, "s"), col(t, b, "i"), col(t, b, "t")
	tests := []struct {
		name string
		args []Expr
		want string
	}{
		{"+", []Expr{s, i}, "cannot apply '+' to STRING and INT"},
		{"frobnicate", []Expr{i}, "unknown function frobnicate"},
		{"=", []Expr{i}, "function = expects 2 arguments, got 1"},
		{"=", []Expr{tsc, lit(t, "not a time", types.String)}, "cannot cast 'not a time' to TIMESTAMP"},
		{"and", []Expr{i, i}, "'and' expects BOOLEAN, got INT"},
		{"count", []Expr{i}, "aggregate function count is not allowed here"},
		{"like", []Expr{s, lit(t, "a\\", types.String)}, "ends with the escape character"},
	}
	for _, tc := range tests {
		_, err := Call(tc.name, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Call(%s): error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestCast(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	s := col(t, b, "s")
	c, err := Cast(s, types.Int)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Eval(context.Background(), b); err == nil || !strings.Contains(err.Error(), "cannot cast 'apple' to INT") {
		t.Errorf("CAST(s AS INT): error %v", err)
	}
	tc, err := TryCast(s, types.Int)
	if err != nil {
		t.Fatal(err)
	}
	check(t, tc, b, nil, nil, nil, nil)
	if got := tc.String(); got != "TRY_CAST(s AS INT)" {
		t.Errorf("String() = %q", got)
	}
	tests := []struct {
		from Expr
		to   arrow.DataType
		want []any
	}{
		{col(t, b, "d"), types.Int, []any{int64(1), nil, int64(-2), int64(0)}},
		{col(t, b, "d"), types.String, []any{"1.5", nil, "-2.0", "0.0"}},
		{col(t, b, "i"), types.Double, []any{1.0, 2.0, nil, 4.0}},
		{col(t, b, "ok"), types.Int, []any{int64(1), int64(0), nil, int64(1)}},
		{col(t, b, "t"), types.Date, []any{"2024-01-01", "2024-06-15", nil, "2023-12-31"}},
		{col(t, b, "t"), types.String, []any{"2024-01-01 00:00:00", "2024-06-15 12:30:00", nil, "2023-12-31 23:59:59"}},
		{col(t, b, "i"), types.Decimal(5, 1), []any{"1.0", "2.0", nil, "4.0"}},
		{lit(t, " 42 ", types.String), types.BigInt, []any{int64(42), int64(42), int64(42), int64(42)}},
		{lit(t, "true", types.String), types.Boolean, []any{true, true, true, true}},
		{lit(t, "2024-02-29", types.String), types.Date, []any{"2024-02-29", "2024-02-29", "2024-02-29", "2024-02-29"}},
	}
	for _, tc := range tests {
		e, err := Cast(tc.from, tc.to)
		if err != nil {
			t.Fatal(err)
		}
		check(t, e, b, tc.want...)
	}
	if _, err := Cast(col(t, b, "t"), types.Array(types.Int)); err == nil {
		t.Error("CAST(TIMESTAMP AS ARRAY<INT>) should fail at bind")
	}
}

func TestCaseAndIn(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	i, s := col(t, b, "i"), col(t, b, "s")
	searched, err := Case(nil,
		[]Expr{mustCall(t, "<", i, lit(t, int32(2), types.Int)), mustCall(t, "<", i, lit(t, int32(4), types.Int))},
		[]Expr{lit(t, "small", types.String), lit(t, "medium", types.String)},
		lit(t, "large", types.String))
	if err != nil {
		t.Fatal(err)
	}
	check(t, searched, b, "small", "medium", "large", "large")
	simple, err := Case(i, []Expr{lit(t, int32(1), types.Int), lit(t, int64(4), types.BigInt)},
		[]Expr{lit(t, 1.5, types.Double), i}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if simple.Type().ID() != arrow.FLOAT64 {
		t.Errorf("CASE type %s, want DOUBLE", simple.Type())
	}
	check(t, simple, b, 1.5, nil, nil, 4.0)
	if _, err := Case(nil, []Expr{i}, []Expr{i}, nil); err == nil {
		t.Error("CASE WHEN <int> should fail")
	}

	in := func(e Expr, not bool, list ...Expr) Expr {
		x, err := In(e, list, not)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	one, four, null := lit(t, int32(1), types.Int), lit(t, int64(4), types.BigInt), lit(t, nil, types.Null)
	check(t, in(i, false, one, four), b, true, false, nil, true)
	check(t, in(i, false, one, null), b, true, nil, nil, nil)
	check(t, in(i, true, one, null), b, false, nil, nil, nil)
	check(t, in(i, true, one, four), b, false, true, nil, false)
	check(t, in(s, false, lit(t, "apple", types.String), s), b, true, true, nil, true)
	check(t, in(i, false, col(t, b, "b"), lit(t, int32(2), types.Int)), b, false, true, nil, nil)
	if got := in(i, true, one, four).String(); got != "(i NOT IN (1, 4))" {
		t.Errorf("String() = %q", got)
	}
}

func TestNested(t *testing.T) {
	geo := types.Struct(arrow.Field{Name: "City", Type: types.String}, arrow.Field{Name: "zip", Type: types.Int})
	tags := types.Array(types.String)
	attrs := types.Map(types.BigInt)
	schema := arrow.NewSchema([]arrow.Field{{Name: "geo", Type: geo, Nullable: true}, {Name: "tags", Type: tags, Nullable: true}, {Name: "attrs", Type: attrs, Nullable: true}}, nil)
	g := buildArray(t, geo, []any{map[string]any{"City": "Paris", "zip": int64(75001)}, nil, map[string]any{"City": nil, "zip": int64(1)}})
	tg := buildArray(t, tags, []any{[]any{"a", "b"}, []any{}, nil})
	at := buildArray(t, attrs, []any{map[string]any{"x": int64(1), "y": int64(2)}, map[string]any{}, nil})
	b := array.NewRecordBatch(schema, []arrow.Array{g, tg, at}, 3)
	defer b.Release()

	city, err := Field(Col(0, "geo", geo), "city")
	if err != nil {
		t.Fatal(err)
	}
	check(t, city, b, "Paris", nil, nil)
	if city.String() != "geo.City" {
		t.Errorf("String() = %q", city.String())
	}
	if _, err := Field(Col(0, "geo", geo), "country"); err == nil || !strings.Contains(err.Error(), "no field country") {
		t.Errorf("missing field: %v", err)
	}
	sub := func(e Expr, idx Expr) Expr {
		x, err := Subscript(e, idx)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	tagsCol := Col(1, "tags", tags)
	// 0-based, as Spark's arr[i]; a negative index is NULL.
	check(t, sub(tagsCol, lit(t, int32(0), types.Int)), b, "a", nil, nil)
	check(t, sub(tagsCol, lit(t, int32(1), types.Int)), b, "b", nil, nil)
	check(t, sub(tagsCol, lit(t, int32(2), types.Int)), b, nil, nil, nil)
	check(t, sub(tagsCol, lit(t, int32(-1), types.Int)), b, nil, nil, nil)
	check(t, sub(Col(2, "attrs", attrs), lit(t, "y", types.String)), b, int64(2), nil, nil)
	mf, err := Field(Col(2, "attrs", attrs), "x")
	if err != nil {
		t.Fatal(err)
	}
	check(t, mf, b, int64(1), nil, nil)
}

func TestTreeHelpers(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	i, s, ok := col(t, b, "i"), col(t, b, "s"), col(t, b, "ok")
	p1 := mustCall(t, ">", i, lit(t, int32(1), types.Int))
	p2 := mustCall(t, "is_not_null", s)
	p3 := ok
	all := AndAll([]Expr{p1, p2, p3})
	if got := all.String(); got != "(((i > 1) AND (s IS NOT NULL)) AND ok)" {
		t.Errorf("AndAll = %s", got)
	}
	conj := SplitConjuncts(all)
	if len(conj) != 3 || conj[0] != p1 || conj[1] != p2 || conj[2] != p3 {
		t.Errorf("SplitConjuncts = %v", conj)
	}
	if AndAll(nil) != nil {
		t.Error("AndAll(nil) should be nil")
	}
	if got := Columns(all); !reflect.DeepEqual(got, []int{0, 3, 5}) {
		t.Errorf("Columns = %v", got)
	}
	// After projecting columns 0, 3, 5 to 0, 1, 2 the predicate reads the narrow batch.
	re := Remap(all, map[int]int{0: 0, 3: 1, 5: 2})
	if got := Columns(re); !reflect.DeepEqual(got, []int{0, 1, 2}) {
		t.Errorf("Columns after Remap = %v", got)
	}
	narrow := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{b.Schema().Field(0), b.Schema().Field(3), b.Schema().Field(5)}, nil),
		[]arrow.Array{b.Column(0), b.Column(3), b.Column(5)}, 4)
	defer narrow.Release()
	check(t, re, narrow, false, false, false, true)
	check(t, all, b, false, false, false, true)

	// Constant folding.
	c := mustCall(t, "+", lit(t, int32(1), types.Int), mustCall(t, "*", lit(t, int32(2), types.Int), lit(t, int32(3), types.Int)))
	if !IsConstant(c) || IsConstant(p1) {
		t.Error("IsConstant")
	}
	f, err := Fold(mustCall(t, "=", i, c))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.String(); got != "(i = 7)" {
		t.Errorf("Fold = %s", got)
	}
	v, err := EvalScalar(context.Background(), c)
	if err != nil || v != int64(7) {
		t.Errorf("EvalScalar = %v, %v", v, err)
	}
	if _, err := EvalScalar(context.Background(), p1); err == nil {
		t.Error("EvalScalar of a column reference should fail")
	}
	var n int
	Walk(all, func(Expr) bool { n++; return true })
	if n != 8 {
		t.Errorf("Walk visited %d nodes, want 8", n)
	}
	if !IsAggregate("COUNT") || IsAggregate("upper") || !IsFunction("sum") || IsFunction("+") {
		t.Error("IsAggregate/IsFunction")
	}
}

func TestLikeConstructor(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	s := col(t, b, "s")
	tests := []struct {
		pattern string
		esc     rune
		ci, not bool
		want    []any
	}{
		{"%pie", '\\', false, false, []any{false, false, nil, true}},
		{"%PIE", '\\', true, false, []any{false, false, nil, true}},
		{"%an%", '\\', false, true, []any{true, false, nil, true}},
		{"cherry_pie", '\\', false, false, []any{false, false, nil, true}},
		{"cherry!_pie", '!', false, false, []any{false, false, nil, false}},
		{"apple", 0, false, false, []any{true, false, nil, false}},
	}
	for _, tc := range tests {
		e, err := Like(s, lit(t, tc.pattern, types.String), tc.esc, tc.ci, tc.not)
		if err != nil {
			t.Fatal(err)
		}
		check(t, e, b, tc.want...)
	}
}

func TestGeneratorHelpers(t *testing.T) {
	us, err := IntervalArg("hop", MustLit("5 minutes", types.String))
	if err != nil || us != 300_000_000 {
		t.Errorf("IntervalArg = %d, %v", us, err)
	}
	if _, err := IntervalArg("hop", Col(0, "x", types.Interval)); err == nil {
		t.Error("IntervalArg of a column should fail")
	}
	if TumbleStart(299_999_999, 300_000_000) != 0 || TumbleStart(-1, 300_000_000) != -300_000_000 {
		t.Error("TumbleStart")
	}
	if et, err := ExplodeType(types.Array(types.Int)); err != nil || et.ID() != arrow.INT32 {
		t.Errorf("ExplodeType = %v, %v", et, err)
	}
	if _, err := ExplodeType(types.String); err == nil {
		t.Error("ExplodeType(STRING) should fail")
	}
}

func TestCaseIsLazy(t *testing.T) {
	// CAST(s AS INT) fails on 'apple', but only rows with digits reach it.
	sc, b := func() (Expr, arrow.RecordBatch) {
		arr := buildArray(t, types.String, []any{"12", "apple", nil, "7"})
		schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: types.String, Nullable: true}}, nil)
		return Col(0, "s", types.String), array.NewRecordBatch(schema, []arrow.Array{arr}, 4)
	}()
	defer b.Release()
	digits := mustCall(t, "rlike", sc, lit(t, `^\d+$`, types.String))
	cast, err := Cast(sc, types.Int)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Case(nil, []Expr{digits}, []Expr{cast}, lit(t, int32(-1), types.Int))
	if err != nil {
		t.Fatal(err)
	}
	check(t, e, b, int64(12), int64(-1), int64(-1), int64(7))
	// Implicit casts of data are lenient: 'apple' compared with a number is NULL.
	check(t, mustCall(t, ">", sc, lit(t, int32(10), types.Int)), b, true, nil, nil, false)
}
