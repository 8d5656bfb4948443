package functions_test

import (
	"math"
	"testing"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// The exact aggregates keep rows per group across Update, Snapshot,
// Restore and Merge (the helper splits the rows in two accumulators).
func TestExactAggregatesGrouped(t *testing.T) {
	c, batch := column(t, types.BigInt, int64(1), int64(5), nil, int64(3), int64(5), int64(10), int64(2), int64(2))
	groups := []uint32{0, 0, 0, 1, 0, 1, 1, 1}
	cases := []struct {
		name string
		args []expr.Expr
		want []any
	}{
		{"median", []expr.Expr{c}, []any{5.0, 2.5}},
		{"percentile", []expr.Expr{c, F(0.25)}, []any{3.0, 2.0}},
		{"mode", []expr.Expr{c}, []any{int64(5), int64(2)}},
		{"max_by", []expr.Expr{c, c}, []any{int64(5), int64(10)}},
		{"min_by", []expr.Expr{c, c}, []any{int64(1), int64(2)}},
		{"bit_xor", []expr.Expr{c}, []any{int64(1 ^ 5 ^ 5), int64(3 ^ 10 ^ 2 ^ 2)}},
		{"listagg", []expr.Expr{c, S("-")}, []any{"1-5-5", "3-10-2-2"}},
	}
	for _, tc := range cases {
		got := aggregate(t, tc.name, false, batch, groups, 2, tc.args...)
		if !eq(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// An empty group is NULL, and so is a group of only NULLs.
	got := aggregate(t, "median", false, batch, []uint32{0, 0, 2, 0, 0, 0, 0, 0}, 3, c)
	if got[1] != nil || got[2] != nil {
		t.Errorf("median of an empty and an all-NULL group: got %v", got)
	}
}

func TestCorrAndRegression(t *testing.T) {
	c, batch := column(t, types.Double, 1.0, 2.0, 4.0, 8.0)
	groups := []uint32{0, 0, 0, 0}
	if got := aggregate(t, "corr", false, batch, groups, 1, c, c); math.Abs(got[0].(float64)-1) > 1e-12 {
		t.Errorf("corr(x, x) = %v, want 1", got[0])
	}
	if got := aggregate(t, "regr_slope", false, batch, groups, 1, c, c); got[0] != 1.0 {
		t.Errorf("regr_slope(x, x) = %v, want 1", got[0])
	}
	if got := aggregate(t, "covar_samp", false, batch, groups[:1], 1, c, c); got[0] != nil {
		t.Errorf("covar_samp of one row = %v, want NULL", got[0])
	}
}
