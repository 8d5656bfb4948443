package functions

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// The offset window functions: lag and lead read the row offset rows
// before or after (ignoring frames, as in Spark), nth_value the n-th row
// of the frame. With IGNORE NULLS they count only rows where x is not
// NULL. first_value and last_value are the first and last aggregates
// over the frame (agg_minmax.go).

// makeLagLead binds lag(x[, offset[, default]]) (lead: sign 1).
func makeLagLead(name string, sign int64) WindowMaker {
	return func(args []Arg, ignoreNulls bool) (*WindowBound, error) {
		off := int64(1)
		if len(args) > 1 {
			var err error
			if off, err = constInt(name, "offset", args[1]); err != nil {
				return nil, err
			}
		}
		off *= sign // rows after the current one: positive
		typ := args[0].Type
		b := &WindowBound{Type: typ, NeedsOrder: true}
		if len(args) > 2 {
			if args[2].Type.ID() != arrow.NULL {
				c, ok := types.Common(typ, args[2].Type)
				if !ok {
					return nil, fmt.Errorf("%s: the default (%s) does not match the value (%s)", name, types.SQLName(args[2].Type), types.SQLName(typ))
				}
				typ = c
			}
			b.Type = typ
			b.Casts = []arrow.DataType{typ, nil, typ}
		} else if typ.ID() == arrow.NULL {
			b.Type = typ
		}
		b.Eval = func(ctx context.Context, p *WindowPartition) (arrow.Array, error) {
			idx := make([]int32, p.N)
			if ignoreNulls && off != 0 {
				offsetIgnoringNulls(p.Args[0], off, idx)
			} else {
				for i := range idx {
					j := int64(i) + off
					if j < 0 || j >= int64(p.N) {
						idx[i] = -1
					} else {
						idx[i] = int32(j)
					}
				}
			}
			if len(p.Args) < 3 {
				return takeOrNull(ctx, p.Args[0], idx)
			}
			// Rows with no such row take their default: index N+i of x
			// followed by the defaults.
			both, err := array.Concatenate([]arrow.Array{p.Args[0], p.Args[2]}, memory.DefaultAllocator)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			defer both.Release()
			for i, j := range idx {
				if j < 0 {
					idx[i] = int32(p.N + i)
				}
			}
			return takeOrNull(ctx, both, idx)
		}
		return b, nil
	}
}

// offsetIgnoringNulls sets idx[i] to the row |off| non-NULL rows before
// (off < 0) or after (off > 0) row i, or -1.
func offsetIgnoringNulls(x arrow.Array, off int64, idx []int32) {
	var nonNull []int32
	for i := range idx {
		if x.IsValid(i) {
			nonNull = append(nonNull, int32(i))
		}
	}
	seen := 0 // non-NULL rows before row i
	for i := range idx {
		var k int64
		if off < 0 {
			k = int64(seen) + off
		} else {
			after := seen
			if x.IsValid(i) {
				after++
			}
			k = int64(after) + off - 1
		}
		if k < 0 || k >= int64(len(nonNull)) {
			idx[i] = -1
		} else {
			idx[i] = nonNull[k]
		}
		if x.IsValid(i) {
			seen++
		}
	}
}

// makeNthValue binds nth_value(x, n): the n-th row of each row's frame.
func makeNthValue(args []Arg, ignoreNulls bool) (*WindowBound, error) {
	n, err := constInt("nth_value", "position", args[1])
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, fmt.Errorf("nth_value expects a positive position, got %d", n)
	}
	b := &WindowBound{Type: args[0].Type, UsesFrame: true}
	b.Eval = func(ctx context.Context, p *WindowPartition) (arrow.Array, error) {
		x := p.Args[0]
		idx := make([]int32, p.N)
		var nonNull []int
		if ignoreNulls {
			for i := 0; i < p.N; i++ {
				if x.IsValid(i) {
					nonNull = append(nonNull, i)
				}
			}
		}
		for i := range idx {
			lo, hi := p.FrameStart[i], p.FrameEnd[i]
			j := -1
			if ignoreNulls {
				k := sort.SearchInts(nonNull, lo) + int(n) - 1
				if k < len(nonNull) && nonNull[k] < hi {
					j = nonNull[k]
				}
			} else if int64(lo)+n-1 < int64(hi) {
				j = lo + int(n) - 1
			}
			idx[i] = int32(j)
		}
		return takeOrNull(ctx, x, idx)
	}
	return b, nil
}
