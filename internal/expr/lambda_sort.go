package expr

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// matrixPairs bounds the comparisons array_sort evaluates in one batch:
// a row with n elements, n*n of them at most, has every pair compared at
// once; a longer array is compared pair by pair as the sort asks.
const matrixPairs = 1 << 16

// arraySort sorts each row's elements with the comparator lambda
// (l, r) -> INT: negative when l comes first, 0 when equal, positive
// after; stable, as Spark's. A NULL comparison is an error, as in Spark.
func (h *HigherOrderExpr) arraySort(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	in, err := h.args[0].Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	l, ok := in.(*array.List)
	if !ok {
		return array.MakeArrayOfNull(memory.DefaultAllocator, h.typ, in.Len()), nil
	}
	el := flatten(l)
	order := make([]int32, 0, len(el.child))
	var sortErr error
	for r := 0; r < l.Len() && sortErr == nil; r++ {
		if l.IsNull(r) {
			continue
		}
		beg, end := l.ValueOffsets(r)
		n := int(end - beg)
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(beg) + int32(i)
		}
		if n > 1 {
			cmp, err := h.comparator(ctx, batch, l, r, beg, n)
			if err != nil {
				return nil, err
			}
			sort.SliceStable(idx, func(a, b int) bool {
				c, err := cmp(int(idx[a]-int32(beg)), int(idx[b]-int32(beg)))
				if err != nil && sortErr == nil {
					sortErr = err
				}
				return c < 0
			})
		}
		order = append(order, idx...)
	}
	if sortErr != nil {
		return nil, fmt.Errorf("array_sort: %w", sortErr)
	}
	oa := int32Array(order)
	defer oa.Release()
	sorted, err := compute.TakeArray(ctx, l.ListValues(), oa)
	if err != nil {
		return nil, fmt.Errorf("array_sort: %w", err)
	}
	defer sorted.Release()
	return rebuildList(l, h.typ, el, nil, sorted), nil
}

// comparator compares elements i and j (0-based within row r, whose
// elements start at beg): every pair at once for a short array, else one
// pair per call.
func (h *HigherOrderExpr) comparator(ctx context.Context, batch arrow.RecordBatch, l *array.List, r int, beg int64, n int) (func(i, j int) (int64, error), error) {
	eval := func(li, ri []int32) (arrow.Array, error) {
		rows := make([]int32, len(li))
		for k := range rows {
			rows[k] = int32(r)
		}
		ra, la, rb := int32Array(rows), int32Array(li), int32Array(ri)
		defer ra.Release()
		defer la.Release()
		defer rb.Release()
		left, err := compute.TakeArray(ctx, l.ListValues(), la)
		if err != nil {
			return nil, err
		}
		defer left.Release()
		right, err := compute.TakeArray(ctx, l.ListValues(), rb)
		if err != nil {
			return nil, err
		}
		defer right.Release()
		res, err := evalBody(ctx, h.lambdas[0], batch, ra, []arrow.Array{left, right})
		if err != nil {
			return nil, fmt.Errorf("array_sort: %w", err)
		}
		defer res.Release()
		c, err := compute.CastArray(ctx, res, compute.SafeCastOptions(types.BigInt))
		if err != nil {
			return nil, fmt.Errorf("array_sort: %w", err)
		}
		return c, nil
	}
	value := func(a arrow.Array, k int) (int64, error) {
		if a.IsNull(k) {
			return 0, fmt.Errorf("the comparator returned NULL")
		}
		return a.(*array.Int64).Value(k), nil
	}
	if n*n <= matrixPairs {
		li, ri := make([]int32, 0, n*n), make([]int32, 0, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				li, ri = append(li, int32(beg)+int32(i)), append(ri, int32(beg)+int32(j))
			}
		}
		m, err := eval(li, ri)
		if err != nil {
			return nil, err
		}
		vals := make([]int64, n*n)
		nulls := make([]bool, n*n)
		for k := range vals {
			nulls[k] = m.IsNull(k)
			if !nulls[k] {
				vals[k] = m.(*array.Int64).Value(k)
			}
		}
		m.Release()
		return func(i, j int) (int64, error) {
			if nulls[i*n+j] {
				return 0, fmt.Errorf("the comparator returned NULL")
			}
			return vals[i*n+j], nil
		}, nil
	}
	return func(i, j int) (int64, error) {
		m, err := eval([]int32{int32(beg) + int32(i)}, []int32{int32(beg) + int32(j)})
		if err != nil {
			return 0, err
		}
		defer m.Release()
		return value(m, 0)
	}, nil
}
