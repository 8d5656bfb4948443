package physical

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/exec"
	"sluice/internal/expr"
)

// TestLetInputAggregateEmitAnyOrder checks which inner aggregates are
// told their order does not matter: only under a global aggregate exact
// in any order, through projections and filters.
func TestLetInputAggregateEmitAnyOrder(t *testing.T) {
	k := expr.Col(0, "k", arrow.BinaryTypes.String)
	n := expr.Col(1, "n", arrow.PrimitiveTypes.Int64)
	agg := func(name string, args ...expr.Expr) *expr.Aggregate {
		a, err := expr.NewAggregate(name, args, false)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	hashAgg := func(keys []expr.Expr, aggs ...*expr.Aggregate) *exec.HashAggregate {
		names := []string{"k"}[:len(keys)]
		h, err := exec.NewHashAggregate(keys, names, aggs)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	inner := func() *exec.HashAggregate { return hashAgg([]expr.Expr{k}, agg("count")) }
	schema := inner().Schema()
	proj, err := exec.NewProject([]expr.Expr{k, n}, []string{"k", "n"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		outer *exec.HashAggregate
		keys  int
		mid   []exec.Operator
		want  bool
	}{
		{"global count and sum", hashAgg(nil, agg("count"), agg("sum", n)), 0, nil, true},
		{"through a projection", hashAgg(nil, agg("count")), 0, []exec.Operator{proj}, true},
		{"grouped outer", hashAgg([]expr.Expr{k}, agg("count")), 1, nil, false},
		{"an order-sensitive aggregate", hashAgg(nil, agg("first", k)), 0, nil, false},
		{"through a limit", hashAgg(nil, agg("count")), 0, []exec.Operator{exec.NewLimit(schema, 5, 0)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := inner()
			ls := &localStage{Stage: &exec.Stage{Ops: append([]exec.Operator{in}, tc.mid...)}}
			letInputAggregateEmitAnyOrder(tc.outer, tc.keys, ls)
			if got := in.EmitsInAnyOrder(); got != tc.want {
				t.Fatalf("inner aggregate in any order: %v, want %v", got, tc.want)
			}
		})
	}
}
