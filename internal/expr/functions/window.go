package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// WindowPartition is one partition's rows in window order, as a window
// function sees them. Every slice has N entries.
type WindowPartition struct {
	N int
	// Args are the evaluated arguments (cast as the bound asked).
	Args []arrow.Array
	// PeerStart and PeerEnd bound the peer group [start, end) of each
	// row: the rows equal to it on the ORDER BY keys (all rows without
	// ORDER BY).
	PeerStart, PeerEnd []int
	// FrameStart and FrameEnd bound each row's frame [start, end); set
	// only for a bound with UsesFrame. An empty frame has start >= end.
	FrameStart, FrameEnd []int
}

// WindowBound is a window function resolved for one call site.
//
// Contract: Eval returns exactly p.N values, owned by the caller, and
// keeps nothing of p. Functions that ignore frames (ranking, lag, lead)
// have UsesFrame false and the planner rejects a frame written for them.
type WindowBound struct {
	Type  arrow.DataType
	Casts []arrow.DataType
	// NeedsOrder: the window must have an ORDER BY (rank, lag, ...).
	NeedsOrder bool
	UsesFrame  bool
	Eval       func(ctx context.Context, p *WindowPartition) (arrow.Array, error)
}

// WindowMaker binds a window function; ignoreNulls is IGNORE NULLS.
type WindowMaker func(args []Arg, ignoreNulls bool) (*WindowBound, error)

// constInt reads a constant integer argument.
func constInt(fn, what string, a Arg) (int64, error) {
	if a.Const {
		switch v := a.Value.(type) {
		case int8:
			return int64(v), nil
		case int16:
			return int64(v), nil
		case int32:
			return int64(v), nil
		case int64:
			return v, nil
		}
	}
	return 0, fmt.Errorf("%s expects a constant integer %s", fn, what)
}

// noIgnoreNulls rejects IGNORE NULLS for functions it means nothing to.
func noIgnoreNulls(fn string, ignoreNulls bool) error {
	if ignoreNulls {
		return fmt.Errorf("IGNORE NULLS is not valid for %s", fn)
	}
	return nil
}

// takeOrNull picks values[idx[i]] per row, NULL where idx[i] < 0.
func takeOrNull(ctx context.Context, values arrow.Array, idx []int32) (arrow.Array, error) {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(len(idx))
	for _, j := range idx {
		if j < 0 {
			b.AppendNull()
		} else {
			b.UnsafeAppend(j)
		}
	}
	ia := b.NewArray()
	defer ia.Release()
	return compute.TakeArray(ctx, values, ia)
}
