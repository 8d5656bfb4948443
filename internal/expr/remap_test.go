package expr

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// Every node kind survives Remap and evaluates on the narrowed batch.
func TestRemapAllNodes(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	i, s, d, ok := col(t, b, "i"), col(t, b, "s"), col(t, b, "d"), col(t, b, "ok")
	cs, err := Case(nil, []Expr{ok}, []Expr{s}, lit(t, "none", types.String))
	if err != nil {
		t.Fatal(err)
	}
	in, err := In(i, []Expr{col(t, b, "b"), lit(t, int32(2), types.Int)}, true)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := Cast(d, types.String)
	if err != nil {
		t.Fatal(err)
	}
	st := mustCall(t, "named_struct", lit(t, "x", types.String), s, lit(t, "tags", types.String), mustCall(t, "array", s, s))
	fld, err := Field(st, "X")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := Subscript(mustCall(t, "array", s, ct), lit(t, int32(1), types.Int))
	if err != nil {
		t.Fatal(err)
	}
	exprs := []Expr{cs, in, ct, fld, sub}
	want := [][]any{
		{"apple", "none", "none", "cherry pie"},
		{true, false, nil, nil},
		{"1.5", nil, "-2.0", "0.0"},
		{"apple", "Banana", nil, "cherry pie"},
		{"1.5", nil, "-2.0", "0.0"},
	}
	// Keep i, b, d, s, ok as columns 0..4 of a narrower batch.
	keep := []int{0, 1, 2, 3, 5}
	mapping := map[int]int{}
	var fields []arrow.Field
	var cols []arrow.Array
	for to, from := range keep {
		mapping[from] = to
		fields = append(fields, b.Schema().Field(from))
		cols = append(cols, b.Column(from))
	}
	narrow := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
	defer narrow.Release()
	for k, e := range exprs {
		check(t, e, b, want[k]...)
		r := Remap(e, mapping)
		if r.String() != e.String() {
			t.Errorf("Remap changed %s to %s", e, r)
		}
		check(t, r, narrow, want[k]...)
	}
	if got := cs.String(); got != "CASE WHEN ok THEN s ELSE 'none' END" {
		t.Errorf("CASE prints %q", got)
	}
	if got := sub.String(); !strings.HasSuffix(got, "[1]") {
		t.Errorf("subscript prints %q", got)
	}
	agg, err := NewAggregate("max", []Expr{d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := Columns(agg.Remap(mapping).Args[0]); len(got) != 1 || got[0] != 2 {
		t.Errorf("Aggregate.Remap columns = %v", got)
	}
}

func TestComparisonTypes(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	dec := func(s string) Expr { return lit(t, s, types.Decimal(6, 2)) }
	check(t, mustCall(t, "<", dec("1.50"), lit(t, "1.505", types.Decimal(6, 3))), b, true, true, true, true)
	check(t, mustCall(t, "=", dec("2.00"), col(t, b, "i")), b, false, true, nil, false)
	check(t, mustCall(t, ">", col(t, b, "ok"), lit(t, false, types.Boolean)), b, true, false, nil, true)
	check(t, mustCall(t, "=", col(t, b, "ok"), lit(t, "true", types.String)), b, true, false, nil, true)
	check(t, mustCall(t, "<>", mustCall(t, "array", col(t, b, "s")), mustCall(t, "array", lit(t, "apple", types.String))), b, false, true, true, true)
	// Arrays order element by element, as in Spark; maps have no order.
	check(t, mustCall(t, "<", mustCall(t, "array", col(t, b, "s")), mustCall(t, "array", lit(t, "b", types.String))), b, true, true, true, false)
	m := lit(t, map[string]any{"k": "v"}, arrow.MapOf(types.String, types.String))
	if _, err := Call("<", m, m); err == nil {
		t.Error("maps have no order")
	}
	check(t, mustCall(t, "negate", col(t, b, "i")), b, int64(-1), int64(-2), nil, int64(-4))
	check(t, mustCall(t, "negate", dec("1.25")), b, "-1.25", "-1.25", "-1.25", "-1.25")
	if _, err := Call("negate", col(t, b, "s")); err == nil {
		t.Error("negate(STRING) should fail")
	}
}

func TestRegistryIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range functions.All() {
		names := append([]string{d.Name}, d.Aliases...)
		for _, n := range names {
			if n != strings.ToLower(n) || seen[n] {
				t.Errorf("registry name %q is duplicated or not lower case", n)
			}
			seen[n] = true
		}
		switch d.Kind {
		case functions.Scalar, functions.Generator:
			if d.Bind == nil {
				t.Errorf("%s has no binder", d.Name)
			}
		case functions.Aggregate:
			if d.Agg == nil {
				t.Errorf("%s has no accumulator", d.Name)
			}
		case functions.WindowFunction:
			if d.Win == nil {
				t.Errorf("%s has no window maker", d.Name)
			}
		case functions.Window:
		default:
			t.Errorf("%s has kind %q", d.Name, d.Kind)
		}
		if d.MaxArgs >= 0 && d.MaxArgs < d.MinArgs {
			t.Errorf("%s: arity %d..%d", d.Name, d.MinArgs, d.MaxArgs)
		}
	}
}
