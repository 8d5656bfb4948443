package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// mem is the allocator for every array built here.
var mem = memory.DefaultAllocator

func sqlName(t arrow.DataType) string { return types.SQLName(t) }

// validityAnd returns the validity bitmap of the rows valid in every one
// of arrs (nil when all are valid) and its null count.
func validityAnd(n int, arrs ...arrow.Array) (*memory.Buffer, int) {
	var buf *memory.Buffer
	for _, a := range arrs {
		if a == nil || a.NullN() == 0 {
			continue
		}
		if buf == nil {
			buf = memory.NewResizableBuffer(mem)
			buf.Resize(int(bitutil.BytesForBits(int64(n))))
			if a.DataType().ID() == arrow.NULL || a.NullN() == a.Len() {
				clear(buf.Bytes())
				return buf, n
			}
			bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), n, buf.Bytes(), 0)
			continue
		}
		if a.DataType().ID() == arrow.NULL || a.NullN() == a.Len() {
			clear(buf.Bytes())
			return buf, n
		}
		bitutil.BitmapAnd(buf.Bytes(), a.NullBitmapBytes(), 0, int64(a.Data().Offset()), buf.Bytes(), 0, int64(n))
	}
	if buf == nil {
		return nil, 0
	}
	return buf, n - bitutil.CountSetBits(buf.Bytes(), 0, n)
}

// newValidity returns an all-valid bitmap for n rows that callers clear
// bits in, e.g. for division by zero.
func newValidity(n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	b := buf.Bytes()
	for i := range b {
		b[i] = 0xff
	}
	return buf
}

// ensureValidity returns valid, or an all-valid bitmap when it is nil.
func ensureValidity(valid *memory.Buffer, n int) *memory.Buffer {
	if valid != nil {
		return valid
	}
	return newValidity(n)
}

func countNulls(valid *memory.Buffer, n int) int {
	if valid == nil {
		return 0
	}
	return n - bitutil.CountSetBits(valid.Bytes(), 0, n)
}

// fixedArray wraps vals (and an optional validity bitmap) as an array of t.
func fixedArray[T arrow.FixedWidthType](t arrow.DataType, vals []T, valid *memory.Buffer) arrow.Array {
	n := len(vals)
	nulls := countNulls(valid, n)
	if nulls == 0 && valid != nil {
		valid.Release()
		valid = nil
	}
	data := array.NewData(t, n, []*memory.Buffer{valid, memory.NewBufferBytes(arrow.GetBytes(vals))}, nil, nulls, 0)
	defer data.Release()
	if valid != nil {
		valid.Release()
	}
	return array.MakeFromData(data)
}

// boolArray wraps a packed value bitmap as a BOOLEAN array.
func boolArray(bits []byte, n int, valid *memory.Buffer) arrow.Array {
	nulls := countNulls(valid, n)
	if nulls == 0 && valid != nil {
		valid.Release()
		valid = nil
	}
	data := array.NewData(types.Boolean, n, []*memory.Buffer{valid, memory.NewBufferBytes(bits)}, nil, nulls, 0)
	defer data.Release()
	if valid != nil {
		valid.Release()
	}
	return array.MakeFromData(data)
}

func newBits(n int) []byte { return make([]byte, bitutil.BytesForBits(int64(n))) }

func setBit(b []byte, i int, v bool) {
	if v {
		b[i>>3] |= 1 << (uint(i) & 7)
	}
}

func isValid(valid []byte, i int) bool { return valid == nil || bitutil.BitIsSet(valid, i) }

// validBytes is the validity bitmap of a as bytes addressed from a's
// first element, or nil when every element is valid.
func validBytes(a arrow.Array) []byte {
	if a.NullN() == 0 {
		return nil
	}
	if a.Data().Offset()%8 == 0 && a.NullBitmapBytes() != nil {
		return a.NullBitmapBytes()[a.Data().Offset()/8:]
	}
	b := newBits(a.Len())
	if a.DataType().ID() != arrow.NULL {
		bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), a.Len(), b, 0)
	}
	return b
}

// Typed accessors: kernels only see the normalized SQL types.
func i32s(a arrow.Array) []int32 {
	switch v := a.(type) {
	case *array.Int32:
		return v.Int32Values()
	case *array.Date32:
		return arrow.GetData[int32](arrow.GetBytes(v.Date32Values()))
	}
	panic(fmt.Sprintf("functions: want INT array, got %s", a.DataType()))
}

func i64s(a arrow.Array) []int64 {
	switch v := a.(type) {
	case *array.Int64:
		return v.Int64Values()
	case *array.Timestamp:
		return arrow.GetData[int64](arrow.GetBytes(v.TimestampValues()))
	}
	panic(fmt.Sprintf("functions: want BIGINT array, got %s", a.DataType()))
}

func f64s(a arrow.Array) []float64 { return a.(*array.Float64).Float64Values() }

func ivs(a arrow.Array) []arrow.MonthDayNanoInterval {
	return a.(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
}

func decs(a arrow.Array) []decimal128.Num { return a.(*array.Decimal128).Values() }

// nullArray is n NULLs of type t.
func nullArray(t arrow.DataType, n int) arrow.Array {
	if t.ID() == arrow.NULL {
		return array.NewNull(n)
	}
	b := array.NewBuilder(mem, t)
	defer b.Release()
	b.AppendNulls(n)
	return b.NewArray()
}

// take is the generic gather: out[i] = values[idx[i]], NULL where idx[i] < 0.
func take(ctx context.Context, values arrow.Array, idx []int32) (arrow.Array, error) {
	valid := newValidity(len(idx))
	vb := valid.Bytes()
	for i, j := range idx {
		if j < 0 {
			bitutil.ClearBit(vb, i)
		}
	}
	ind := fixedArray(arrow.PrimitiveTypes.Int32, idx, valid)
	defer ind.Release()
	if values.DataType().ID() == arrow.NULL {
		return array.NewNull(len(idx)), nil
	}
	if values.DataType().ID() == arrow.INTERVAL_MONTH_DAY_NANO {
		// Arrow's take kernel has no month-day-nano case.
		src, vb := ivs(values), validBytes(values)
		out := make([]arrow.MonthDayNanoInterval, len(idx))
		ob := valid.Bytes()
		for i, j := range idx {
			if j >= 0 && isValid(vb, int(j)) {
				out[i] = src[j]
			} else {
				bitutil.ClearBit(ob, i)
			}
		}
		valid.Retain()
		return fixedArray(values.DataType(), out, valid), nil
	}
	return compute.TakeArray(ctx, values, ind)
}

// Pick builds an array whose row i is row i of cands[choice[i]], or NULL
// where choice[i] < 0. All candidates share one type and length. It backs
// CASE, IF, COALESCE and friends for every type, nested ones included.
func Pick(ctx context.Context, t arrow.DataType, n int, cands []arrow.Array, choice []int32) (arrow.Array, error) {
	if len(cands) == 0 || t.ID() == arrow.NULL {
		return nullArray(t, n), nil
	}
	if ids := fastPick(t, n, cands, choice); ids != nil {
		return ids, nil
	}
	var all arrow.Array
	if len(cands) == 1 {
		all = cands[0]
		all.Retain()
	} else {
		var err error
		all, err = array.Concatenate(cands, mem)
		if err != nil {
			return nil, fmt.Errorf("combining branches: %w", err)
		}
	}
	defer all.Release()
	idx := make([]int32, n)
	for i, c := range choice {
		if c < 0 {
			idx[i] = -1
		} else {
			idx[i] = c*int32(n) + int32(i)
		}
	}
	return take(ctx, all, idx)
}

// fastPick handles the fixed-width types with typed loops.
func fastPick(t arrow.DataType, n int, cands []arrow.Array, choice []int32) arrow.Array {
	switch t.ID() {
	case arrow.INT64, arrow.TIMESTAMP:
		return pickFixed(t, n, cands, choice, i64s)
	case arrow.INT32, arrow.DATE32:
		return pickFixed(t, n, cands, choice, i32s)
	case arrow.FLOAT64:
		return pickFixed(t, n, cands, choice, f64s)
	case arrow.DECIMAL128:
		return pickFixed(t, n, cands, choice, decs)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return pickFixed(t, n, cands, choice, ivs)
	}
	return nil
}

func pickFixed[T arrow.FixedWidthType](t arrow.DataType, n int, cands []arrow.Array, choice []int32, vals func(arrow.Array) []T) arrow.Array {
	out := make([]T, n)
	valid := newValidity(n)
	vb := valid.Bytes()
	cv := make([][]T, len(cands))
	cb := make([][]byte, len(cands))
	for j, c := range cands {
		cv[j] = vals(c)
		cb[j] = validBytes(c)
	}
	for i, c := range choice {
		if c < 0 || !isValid(cb[c], i) {
			bitutil.ClearBit(vb, i)
			continue
		}
		out[i] = cv[c][i]
	}
	return fixedArray(t, out, valid)
}

// Repeat returns n copies of element 0 of one.
func Repeat(ctx context.Context, one arrow.Array, n int) (arrow.Array, error) {
	t := one.DataType()
	if IsNullAt(one, 0) {
		return nullArray(t, n), nil
	}
	switch t.ID() {
	case arrow.BOOL:
		bits := newBits(n)
		if one.(*array.Boolean).Value(0) {
			for i := range bits {
				bits[i] = 0xff
			}
		}
		return boolArray(bits, n, nil), nil
	case arrow.INT32, arrow.DATE32:
		return repeatFixed(t, i32s(one)[0], n), nil
	case arrow.INT64, arrow.TIMESTAMP:
		return repeatFixed(t, i64s(one)[0], n), nil
	case arrow.FLOAT64:
		return repeatFixed(t, f64s(one)[0], n), nil
	case arrow.DECIMAL128:
		return repeatFixed(t, decs(one)[0], n), nil
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return repeatFixed(t, ivs(one)[0], n), nil
	case arrow.STRING:
		s := one.(*array.String).Value(0)
		offs := make([]int32, n+1)
		for i := range offs {
			offs[i] = int32(i * len(s))
		}
		data := make([]byte, 0, n*len(s))
		for i := 0; i < n; i++ {
			data = append(data, s...)
		}
		ad := array.NewData(t, n, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.GetBytes(offs)), memory.NewBufferBytes(data)}, nil, 0, 0)
		defer ad.Release()
		return array.MakeFromData(ad), nil
	}
	return take(ctx, one, make([]int32, n))
}

func repeatFixed[T arrow.FixedWidthType](t arrow.DataType, v T, n int) arrow.Array {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return fixedArray(t, out, nil)
}

// Nulls returns n NULLs of type t.
func Nulls(t arrow.DataType, n int) arrow.Array { return nullArray(t, n) }

// Take gathers values[idx[i]] for every i; idx[i] < 0 gives NULL.
func Take(ctx context.Context, values arrow.Array, idx []int32) (arrow.Array, error) {
	return take(ctx, values, idx)
}
