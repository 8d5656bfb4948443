package functions

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ErrSubqueryRows is what a scalar subquery that yields more than one row
// fails with (Spark's SCALAR_SUBQUERY_TOO_MANY_ROWS).
var ErrSubqueryRows = errors.New("more than one row returned by a subquery used as an expression")

// SingleValueName names the internal aggregate that takes a scalar
// subquery's value: the one value of its group, NULL for no row, an
// error (ErrSubqueryRows) for a second row.
const SingleValueName = "scalar_subquery_value"

func makeSingleValue(args []Arg, distinct bool) (*AggBound, error) {
	t := fieldType(args[0].Type)
	return &AggBound{Type: t, Casts: []arrow.DataType{t}, New: func() Accumulator {
		return &singleAcc{firstAcc: firstAcc{typ: t}}
	}}, nil
}

type singleAcc struct {
	firstAcc
}

func (a *singleAcc) Update(groups []uint32, args []arrow.Array) error {
	mg := maxGroup(groups)
	a.vals = sizeTo(a.vals, mg+1)
	a.set = sizeTo(a.set, mg+1)
	for i, g := range groups {
		if a.set[g] {
			return ErrSubqueryRows
		}
		a.vals[g], a.set[g] = types.ValueAt(args[0], i), true
	}
	return nil
}

func (a *singleAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*singleAcc)
	if !ok {
		return mergeTypeError(a, other)
	}
	for g, s := range o.set {
		if !s {
			continue
		}
		t := mapping[g]
		a.vals = grow(a.vals, t)
		a.set = grow(a.set, t)
		if a.set[t] {
			return ErrSubqueryRows
		}
		a.vals[t], a.set[t] = o.vals[g], true
	}
	return nil
}
