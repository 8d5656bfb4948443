package functions

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Filtered wraps an aggregate for agg(...) FILTER (WHERE cond): Update
// takes one more, last, argument (the condition, BOOLEAN) and folds only
// the rows where it is TRUE into the inner aggregate. A group all of
// whose rows were filtered out gets the inner aggregate's empty result
// (count 0, others NULL), as Spark gives.
func Filtered(b *AggBound) *AggBound {
	inner := b.New
	casts := append(append([]arrow.DataType{}, b.Casts...), nil)
	return &AggBound{Type: b.Type, Casts: casts, New: func() Accumulator {
		return &filterAcc{inner: inner()}
	}}
}

type filterAcc struct {
	inner Accumulator
}

func (f *filterAcc) Update(groups []uint32, args []arrow.Array) error {
	if len(args) == 0 {
		return fmt.Errorf("filtered aggregate: missing the FILTER condition")
	}
	cond, ok := args[len(args)-1].(*array.Boolean)
	rest := args[:len(args)-1]
	if !ok {
		if args[len(args)-1].DataType().ID() == arrow.NULL {
			return nil // FILTER (WHERE NULL) keeps nothing
		}
		return fmt.Errorf("filtered aggregate: FILTER condition is %s, not BOOLEAN", args[len(args)-1].DataType())
	}
	keep := make([]int32, 0, len(groups))
	for i := range groups {
		if cond.IsValid(i) && cond.Value(i) {
			keep = append(keep, int32(i))
		}
	}
	if len(keep) == len(groups) {
		return f.inner.Update(groups, rest)
	}
	if len(keep) == 0 {
		return nil
	}
	kg := make([]uint32, len(keep))
	for j, i := range keep {
		kg[j] = groups[i]
	}
	// Not released here: an inner aggregate may keep what it was given
	// (DISTINCT keeps its rows for merging).
	taken := make([]arrow.Array, len(rest))
	for j, a := range rest {
		t, err := take(context.Background(), a, keep)
		if err != nil {
			return err
		}
		taken[j] = t
	}
	return f.inner.Update(kg, taken)
}

func (f *filterAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*filterAcc)
	if !ok {
		return mergeTypeError(f, other)
	}
	return f.inner.Merge(o.inner, mapping)
}

func (f *filterAcc) Result(numGroups int) (arrow.Array, error) { return f.inner.Result(numGroups) }
func (f *filterAcc) Snapshot(w io.Writer) error                { return f.inner.Snapshot(w) }
func (f *filterAcc) Restore(r io.Reader) error                 { return f.inner.Restore(r) }
