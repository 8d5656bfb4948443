package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// gather returns a's elements at rows. For the common key types it copies
// with a typed builder: the compute Take kernel has a large fixed cost
// per call (type checks, output sized from the whole input), which
// dominates when a batch brings only a few new groups.
func gather(ctx context.Context, a arrow.Array, rows []int) (arrow.Array, error) {
	nulls := a.NullN() > 0
	switch v := a.(type) {
	case *array.String:
		if !nulls {
			return gatherStrings(v, rows), nil
		}
		b := array.NewStringBuilder(memAlloc)
		defer b.Release()
		b.Reserve(len(rows))
		size := 0
		for _, r := range rows {
			size += v.ValueLen(r)
		}
		b.ReserveData(size)
		for _, r := range rows {
			if v.IsNull(r) {
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

// gatherStrings is gather of a STRING array without NULLs, writing the
// offsets and bytes directly: a builder's per-value Append was most of a
// spilling GROUP BY's partitioning.
func gatherStrings(v *array.String, rows []int) arrow.Array {
	// ValueBytes starts at the array's first value, its offsets at
	// whatever the slice's first offset is.
	offs := v.ValueOffsets()
	data := v.ValueBytes()
	base := offs[0]
	size := 0
	for _, r := range rows {
		size += int(offs[r+1] - offs[r])
	}
	ob := memory.NewResizableBuffer(memAlloc)
	ob.Resize(arrow.Int32Traits.BytesRequired(len(rows) + 1))
	db := memory.NewResizableBuffer(memAlloc)
	db.Resize(size)
	out := arrow.Int32Traits.CastFromBytes(ob.Bytes())
	bytes := db.Bytes()
	at := int32(0)
	for i, r := range rows {
		out[i] = at
		at += int32(copy(bytes[at:], data[offs[r]-base:offs[r+1]-base]))
	}
	out[len(rows)] = at
	d := array.NewData(v.DataType(), len(rows), []*memory.Buffer{nil, ob, db}, nil, 0, 0)
	ob.Release()
	db.Release()
	defer d.Release()
	return array.MakeFromData(d)
}

// splitStrings is, for each partition p, gather of v (no NULLs) at
// members[p], the rows whose part is p in ascending order: one pass over
// v rather than one per partition, so a spill reads the keys once.
func splitStrings(v *array.String, part []uint8, members *[spillPartitions][]int) []arrow.Array {
	offs := v.ValueOffsets()
	data := v.ValueBytes()
	base := offs[0]
	var size [spillPartitions]int
	for r, p := range part {
		size[p] += int(offs[r+1] - offs[r])
	}
	var outOffs [spillPartitions][]int32
	var outData [spillPartitions][]byte
	var bufs [spillPartitions][2]*memory.Buffer
	for p := range members {
		ob := memory.NewResizableBuffer(memAlloc)
		ob.Resize(arrow.Int32Traits.BytesRequired(len(members[p]) + 1))
		db := memory.NewResizableBuffer(memAlloc)
		db.Resize(size[p])
		bufs[p] = [2]*memory.Buffer{ob, db}
		outOffs[p] = arrow.Int32Traits.CastFromBytes(ob.Bytes())[:0]
		outData[p] = db.Bytes()[:0]
	}
	for r, p := range part {
		outOffs[p] = append(outOffs[p], int32(len(outData[p])))
		outData[p] = append(outData[p], data[offs[r]-base:offs[r+1]-base]...)
	}
	out := make([]arrow.Array, spillPartitions)
	for p := range out {
		outOffs[p] = append(outOffs[p], int32(len(outData[p])))
		d := array.NewData(v.DataType(), len(members[p]), []*memory.Buffer{nil, bufs[p][0], bufs[p][1]}, nil, 0, 0)
		bufs[p][0].Release()
		bufs[p][1].Release()
		out[p] = array.MakeFromData(d)
		d.Release()
	}
	return out
}
