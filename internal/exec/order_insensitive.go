package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// Pos is where a batch's first row sits in the input order of a scan:
// the split's index in the top bits, the row's offset within the split
// (after the scan's local operators) in the low PosSplitShift bits. Rows
// compare in input order by their Pos plus their index in the batch.
type Pos int64

// PosSplitShift leaves 2^40 rows per split and 2^23 splits.
const PosSplitShift = 40

// At is the position of the batch's i-th row.
func (p Pos) At(i int) Pos { return p + Pos(i) }

// OrderInsensitive is an optional ability of an Operator: it may be fed
// its input batches in whatever order the scan workers finish them, and
// still emit exactly what in-order delivery gives (the same rows in the
// same order), because each batch comes with its input position.
//
// Contract: when AnyOrder reports true, the driver may call ProcessAt
// instead of Process for every batch of an epoch (never mixing the two
// within one epoch); otherwise it calls Process only. ProcessAt follows
// Process's contract.
type OrderInsensitive interface {
	Operator
	AnyOrder() bool
	ProcessAt(ctx context.Context, batch arrow.RecordBatch, pos Pos, out Output) error
}

// TakesAnyOrder reports whether op may be fed out of order.
func TakesAnyOrder(op Operator) bool {
	o, ok := op.(OrderInsensitive)
	return ok && o.AnyOrder()
}

// exactInAnyOrder reports whether a's result does not depend on the
// order of the rows it folds. Floating-point sums round differently in
// another order, and first/last, collect_list/collect_set and the
// percentile sketch keep what they saw first, so they need the order.
// avg of an integer is summed in DOUBLE: exact while the sum stays
// below 2^53, which covers realistic columns.
func exactInAnyOrder(a *expr.Aggregate) bool {
	switch a.Name {
	case "count", "count_if", "min", "max", "bool_and", "bool_or", "approx_count_distinct":
		return true
	case "sum", "avg", "try_sum", "try_avg":
		if len(a.Args) != 1 {
			return false
		}
		t := a.Args[0].Type()
		if c, ok := a.Args[0].(*expr.CastExpr); ok {
			t = c.Arg.Type()
		}
		t = types.Normalize(t)
		return types.IsInteger(t) || t.ID() == arrow.DECIMAL128
	}
	return false
}

// mergesInOrder reports whether a's partial states, merged in input
// order, give its result: a floating-point sum as a sum of partial sums
// (rounded differently from a row-by-row fold, but the same for given
// input and splits), approx_percentile exactly while a group holds at
// most accuracy values (its sketch keeps every value until then) and by
// merged sketches past that.
func mergesInOrder(a *expr.Aggregate) bool {
	switch a.Name {
	case "sum", "avg", "try_sum", "try_avg":
		return len(a.Args) == 1 && !a.Distinct
	case "approx_percentile", "percentile_approx":
		return !a.Distinct
	}
	return false
}
