package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// gather returns a's elements at rows. For the common key types it copies
// with a typed builder: the compute Take kernel has a large fixed cost
// per call (type checks, output sized from the whole input), which
// dominates when a batch brings only a few new groups.
func gather(ctx context.Context, a arrow.Array, rows []int) (arrow.Array, error) {
	nulls := a.NullN() > 0
	switch v := a.(type) {
	case *array.String:
		b := array.NewStringBuilder(memAlloc)
		defer b.Release()
		b.Reserve(len(rows))
		size := 0
		for _, r := range rows {
			size += v.ValueLen(r)
		}
		b.ReserveData(size)
		for _, r := range rows {
			if nulls && v.IsNull(r) {
				b.AppendNull()
			} else {
				b.Append(v.Value(r))
			}
		}
		return b.NewArray(), nil
	case *array.Int64:
		return gatherFixed(array.NewInt64Builder(memAlloc), v.Int64Values(), v, rows, nulls), nil
	case *array.Int32:
		return gatherFixed(array.NewInt32Builder(memAlloc), v.Int32Values(), v, rows, nulls), nil
	case *array.Float64:
		return gatherFixed(array.NewFloat64Builder(memAlloc), v.Float64Values(), v, rows, nulls), nil
	case *array.Date32:
		return gatherFixed(array.NewDate32Builder(memAlloc), v.Date32Values(), v, rows, nulls), nil
	case *array.Timestamp:
		b := array.NewTimestampBuilder(memAlloc, v.DataType().(*arrow.TimestampType))
		return gatherFixed(b, v.TimestampValues(), v, rows, nulls), nil
	}
	idx := indexArray(rows)
	defer idx.Release()
	return compute.TakeArray(ctx, a, idx)
}

// fixedBuilder is the part of arrow's typed builders gatherFixed uses.
type fixedBuilder[T any] interface {
	array.Builder
	UnsafeAppend(T)
}

func gatherFixed[T any](b fixedBuilder[T], vals []T, a arrow.Array, rows []int, nulls bool) arrow.Array {
	defer b.Release()
	b.Reserve(len(rows))
	for _, r := range rows {
		if nulls && a.IsNull(r) {
			b.UnsafeAppendBoolToBitmap(false)
		} else {
			b.UnsafeAppend(vals[r])
		}
	}
	return b.NewArray()
}
