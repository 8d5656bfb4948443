package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// takeColumn returns col's rows at idx (every index in range), in that
// order. Strings, binaries and fixed-width primitives are copied here in
// two passes (sizes, then bytes into buffers allocated once): Arrow's
// Take kernel grows its string buffer as it goes, and for a sort's
// millions of rows the regrowth copies cost more than the take itself.
// Other types go to the kernel.
func takeColumn(ctx context.Context, col arrow.Array, idx []int32, ia arrow.Array) (arrow.Array, error) {
	switch v := col.(type) {
	case *array.String:
		return takeVarBinary(v.Data(), v.ValueOffsets(), idx), nil
	case *array.Binary:
		return takeVarBinary(v.Data(), v.ValueOffsets(), idx), nil
	}
	if fw, ok := col.DataType().(arrow.FixedWidthDataType); ok && plainFixed(col.DataType().ID()) &&
		fw.BitWidth()%8 == 0 && len(col.Data().Buffers()) == 2 && col.Data().Buffers()[1] != nil {
		return takeFixed(col.Data(), fw.BitWidth()/8, idx), nil
	}
	return compute.TakeArray(ctx, col, ia)
}

// plainFixed reports whether arrays of type id are a validity bitmap and
// one buffer of fixed-width values (not a dictionary or an extension).
func plainFixed(id arrow.Type) bool {
	switch id {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64,
		arrow.TIMESTAMP, arrow.DURATION, arrow.DECIMAL128, arrow.DECIMAL256, arrow.INTERVAL_MONTHS,
		arrow.INTERVAL_DAY_TIME, arrow.INTERVAL_MONTH_DAY_NANO, arrow.FIXED_SIZE_BINARY:
		return true
	}
	return false
}

// takeValidity returns the validity bitmap of d's rows at idx and the
// NULL count, or nil when d has no NULLs.
func takeValidity(d arrow.ArrayData, idx []int32) (*memory.Buffer, int) {
	if d.NullN() == 0 {
		return nil, 0
	}
	bm := d.Buffers()[0].Bytes()
	off := d.Offset()
	out := make([]byte, bitutil.BytesForBits(int64(len(idx))))
	nulls := 0
	for i, r := range idx {
		if bitutil.BitIsSet(bm, off+int(r)) {
			bitutil.SetBit(out, i)
		} else {
			nulls++
		}
	}
	return memory.NewBufferBytes(out), nulls
}

func takeVarBinary(d arrow.ArrayData, offs []int32, idx []int32) arrow.Array {
	// offs is already sliced to the array's offset and points into the
	// whole data buffer.
	var data []byte
	if b := d.Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	total := 0
	for _, r := range idx {
		total += int(offs[r+1] - offs[r])
	}
	outOffs := make([]int32, len(idx)+1)
	outData := make([]byte, total)
	pos := 0
	for i, r := range idx {
		pos += copy(outData[pos:], data[offs[r]:offs[r+1]])
		outOffs[i+1] = int32(pos)
	}
	valid, nulls := takeValidity(d, idx)
	nd := array.NewData(d.DataType(), len(idx), []*memory.Buffer{valid,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(outOffs)), memory.NewBufferBytes(outData)}, nil, nulls, 0)
	defer nd.Release()
	return array.MakeFromData(nd)
}

func takeFixed(d arrow.ArrayData, width int, idx []int32) arrow.Array {
	src := d.Buffers()[1].Bytes()[d.Offset()*width:]
	out := make([]byte, len(idx)*width)
	switch width {
	case 8:
		s, o := arrow.Int64Traits.CastFromBytes(src), arrow.Int64Traits.CastFromBytes(out)
		for i, r := range idx {
			o[i] = s[r]
		}
	case 4:
		s, o := arrow.Int32Traits.CastFromBytes(src), arrow.Int32Traits.CastFromBytes(out)
		for i, r := range idx {
			o[i] = s[r]
		}
	default:
		for i, r := range idx {
			copy(out[i*width:(i+1)*width], src[int(r)*width:])
		}
	}
	valid, nulls := takeValidity(d, idx)
	nd := array.NewData(d.DataType(), len(idx), []*memory.Buffer{valid, memory.NewBufferBytes(out)}, nil, nulls, 0)
	defer nd.Release()
	return array.MakeFromData(nd)
}
