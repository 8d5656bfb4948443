package expr

import (
	"context"
	"strings"
	"testing"

	"sluice/internal/types"
)

// A conditional never fails on rows its result does not depend on:
// d is 0 in row 3, where every guard below keeps 1 / d from mattering.
func TestConditionalsSkipUndecidedRows(t *testing.T) {
	b := testBatch(t)
	defer b.Release()
	d := col(t, b, "d")
	zero := lit(t, 0.0, types.Double)
	one := lit(t, 1.0, types.Double)
	inv := mustCall(t, "/", one, d)
	notZero := mustCall(t, "<>", d, zero)
	isZero := mustCall(t, "=", d, zero)
	check(t, mustCall(t, "and", notZero, mustCall(t, ">", inv, zero)), b, true, nil, false, false)
	check(t, mustCall(t, "or", isZero, mustCall(t, ">", inv, zero)), b, true, nil, false, true)
	check(t, mustCall(t, "if", isZero, lit(t, nil, types.Null), inv), b, 1/1.5, nil, -0.5, nil)
	check(t, mustCall(t, "coalesce", mustCall(t, "if", isZero, lit(t, -1.0, types.Double), lit(t, nil, types.Null)), inv), b, 1/1.5, nil, -0.5, -1.0)

	// A row that does need the failing argument still fails, naming it.
	_, err := mustCall(t, "and", mustCall(t, "is_not_null", d), mustCall(t, ">", inv, zero)).Eval(context.Background(), b)
	if err == nil || !strings.Contains(err.Error(), "division by zero in (1.0 / d)") {
		t.Fatalf("got %v, want the division by zero of row 3", err)
	}
}
