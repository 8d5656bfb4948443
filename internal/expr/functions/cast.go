package functions

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
	"sluice/internal/usererr"
)

// CanCast reports whether CAST(x AS to) is allowed for x of type from.
// Whether a particular value converts is only known at Eval.
func CanCast(from, to arrow.DataType) bool {
	from, to = types.Normalize(from), types.Normalize(to)
	if from.ID() == arrow.NULL || arrow.TypeEqual(from, to) || to.ID() == arrow.STRING {
		return true
	}
	scalarish := func(t arrow.DataType) bool {
		return types.IsNumeric(t) || t.ID() == arrow.BOOL || types.IsTemporal(t)
	}
	switch {
	case from.ID() == arrow.STRING:
		return scalarish(to) || to.ID() == arrow.INTERVAL_MONTH_DAY_NANO || to.ID() == arrow.BINARY
	case scalarish(from) && scalarish(to):
		// DATE has no numeric value in Spark.
		return !(from.ID() == arrow.DATE32 && types.IsNumeric(to) || to.ID() == arrow.DATE32 && types.IsNumeric(from))
	case from.ID() == arrow.BINARY:
		return to.ID() == arrow.STRING
	case from.ID() == arrow.LIST && to.ID() == arrow.LIST:
		return CanCast(from.(*arrow.ListType).Elem(), to.(*arrow.ListType).Elem())
	case from.ID() == arrow.STRUCT && to.ID() == arrow.STRUCT:
		ff, tf := from.(*arrow.StructType).Fields(), to.(*arrow.StructType).Fields()
		if len(ff) != len(tf) {
			return false
		}
		for i := range ff {
			if !CanCast(ff[i].Type, tf[i].Type) {
				return false
			}
		}
		return true
	}
	return false
}

// Cast converts arr to type to. With try, values that do not convert
// become NULL; otherwise the first one is an error such as
// "cannot cast 'abc' to INT".
func Cast(ctx context.Context, arr arrow.Array, to arrow.DataType, try bool) (arrow.Array, error) {
	from := arr.DataType()
	if arrow.TypeEqual(from, to) {
		arr.Retain()
		return arr, nil
	}
	n := arr.Len()
	if from.ID() == arrow.NULL {
		return nullArray(to, n), nil
	}
	if nf := types.Normalize(from); !arrow.TypeEqual(nf, from) {
		if nf.ID() == arrow.TIMESTAMP && from.ID() == arrow.TIMESTAMP && from.(*arrow.TimestampType).Unit == arrow.Microsecond {
			return relabel(arr, nf), nil
		}
		norm, err := compute.CastArray(ctx, arr, compute.UnsafeCastOptions(nf))
		if err != nil {
			return nil, fmt.Errorf("cannot cast %s to %s: %w", from, sqlName(nf), err)
		}
		defer norm.Release()
		return Cast(ctx, norm, to, try)
	}
	if to.ID() == arrow.TIMESTAMP && from.ID() == arrow.TIMESTAMP {
		if tt := to.(*arrow.TimestampType); tt.Unit == arrow.Microsecond {
			return relabel(arr, to), nil
		}
	}
	if to.ID() == arrow.STRING {
		return castToString(arr), nil
	}
	if !CanCast(from, to) {
		return nil, fmt.Errorf("cannot cast %s to %s", sqlName(from), sqlName(to))
	}
	if from.ID() == arrow.STRING {
		return castFromString(arr.(*array.String), to, try)
	}
	switch to.ID() {
	case arrow.LIST:
		return castList(ctx, arr.(*array.List), to.(*arrow.ListType), try)
	case arrow.STRUCT:
		return castStruct(ctx, arr.(*array.Struct), to.(*arrow.StructType), try)
	}
	return castScalar(arr, to, try)
}

// relabel reuses arr's buffers under another type of the same layout.
func relabel(arr arrow.Array, t arrow.DataType) arrow.Array {
	d := arr.Data()
	nd := array.NewData(t, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd)
}

func castToString(arr arrow.Array) arrow.Array {
	switch v := arr.(type) {
	case *array.Int64:
		return intsToString(v, v.Int64Values())
	case *array.Int32:
		return intsToString(v, v.Int32Values())
	case *array.Int16:
		return intsToString(v, v.Int16Values())
	case *array.Int8:
		return intsToString(v, v.Int8Values())
	}
	n := arr.Len()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(types.FormatValue(arr, i))
	}
	return b.NewArray()
}

// intsToString is castToString of an integer column: digits appended
// in place, not a string formatted and copied per value.
func intsToString[T int8 | int16 | int32 | int64](arr arrow.Array, vals []T) arrow.Array {
	n := arr.Len()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	b.ReserveData(n * 8)
	nulls := arr.NullN() > 0
	var buf [20]byte
	for i, v := range vals[:n] {
		if nulls && arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.BinaryBuilder.Append(strconv.AppendInt(buf[:0], int64(v), 10))
	}
	return b.NewArray()
}

// CastError is one row's value that does not convert to the target type
// (try_cast gives NULL instead): an error of the row, like ArithError, so
// a stream treats the row as a bad row.
type CastError struct{ Msg string }

func (e *CastError) Error() string { return e.Msg }

// UserErrorKind marks a cast failure as the user's (usererr.Evaluation):
// the server answers it 400, and a stream does not retry it.
func (e *CastError) UserErrorKind() usererr.Kind { return usererr.Evaluation }

// castError reports the first value that does not convert.
func castError(v string, to arrow.DataType) error {
	if len(v) > 64 {
		v = v[:64] + "..."
	}
	return &CastError{Msg: fmt.Sprintf("cannot cast '%s' to %s", v, sqlName(to))}
}

// ParseBool reads the boolean spellings Spark accepts.
func ParseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "yes", "y", "1":
		return true, true
	case "false", "f", "no", "n", "0":
		return false, true
	}
	return false, false
}

// ParseInt reads an integer; like Spark it accepts "1.9" (truncating).
func ParseInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		return v, true
	}
	if errors.Is(err, strconv.ErrRange) {
		// An integer past BIGINT: its nearest double may be ±2^63, in range.
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	// 2^63 is the first double past BIGINT (9223372036854775808 parses
	// to it); -2^63 itself fits.
	f = math.Trunc(f)
	if err != nil || math.IsNaN(f) || f >= 0x1p63 || f < -0x1p63 {
		return 0, false
	}
	return int64(f), true
}

func parseFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1), true
	case "-inf", "-infinity":
		return math.Inf(-1), true
	case "nan":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func castFromString(arr *array.String, to arrow.DataType, try bool) (arrow.Array, error) {
	n := arr.Len()
	valid := newValidity(n)
	vb := valid.Bytes()
	src := validBytes(arr)
	fail := func(i int) error {
		if try {
			bitutil.ClearBit(vb, i)
			return nil
		}
		valid.Release()
		return castError(arr.Value(i), to)
	}
	each := func(f func(i int, s string) bool) error {
		for i := 0; i < n; i++ {
			if !isValid(src, i) {
				bitutil.ClearBit(vb, i)
				continue
			}
			if !f(i, arr.Value(i)) {
				if err := fail(i); err != nil {
					return err
				}
			}
		}
		return nil
	}
	switch to.ID() {
	case arrow.BOOL:
		bits := newBits(n)
		err := each(func(i int, s string) bool {
			v, ok := ParseBool(s)
			setBit(bits, i, v)
			return ok
		})
		if err != nil {
			return nil, err
		}
		return boolArray(bits, n, valid), nil
	case arrow.INT32:
		out := make([]int32, n)
		err := each(func(i int, s string) bool {
			v, ok := ParseInt(s)
			out[i] = int32(v)
			return ok && v >= math.MinInt32 && v <= math.MaxInt32
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(to, out, valid), nil
	case arrow.INT64:
		out := make([]int64, n)
		err := each(func(i int, s string) bool {
			v, ok := ParseInt(s)
			out[i] = v
			return ok
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(to, out, valid), nil
	case arrow.FLOAT64:
		out := make([]float64, n)
		err := each(func(i int, s string) bool {
			v, ok := parseFloat(s)
			out[i] = v
			return ok
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(to, out, valid), nil
	case arrow.DECIMAL128:
		dt := to.(*arrow.Decimal128Type)
		out := make([]decimal128.Num, n)
		err := each(func(i int, s string) bool {
			v, err := decimal128.FromString(strings.TrimSpace(s), dt.Precision, dt.Scale)
			out[i] = v
			return err == nil && v.FitsInPrecision(dt.Precision)
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(to, out, valid), nil
	case arrow.DATE32:
		out := make([]arrow.Date32, n)
		err := each(func(i int, s string) bool {
			if d, ok := types.ParseDate(s); ok {
				out[i] = arrow.Date32(d)
				return true
			}
			us, ok := types.ParseTimestamp(s)
			out[i] = arrow.Date32(floorDiv(us, microsPerDay))
			return ok
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(to, out, valid), nil
	case arrow.TIMESTAMP:
		out := make([]arrow.Timestamp, n)
		err := each(func(i int, s string) bool {
			us, ok := types.ParseTimestamp(s)
			out[i] = arrow.Timestamp(us)
			return ok
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(to, out, valid), nil
	case arrow.INTERVAL_MONTH_DAY_NANO:
		out := make([]arrow.MonthDayNanoInterval, n)
		err := each(func(i int, s string) bool {
			iv, err := types.ParseInterval(s)
			out[i] = iv
			return err == nil
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(to, out, valid), nil
	case arrow.BINARY:
		valid.Release()
		return relabel(arr, to), nil
	}
	valid.Release()
	return nil, fmt.Errorf("cannot cast STRING to %s", sqlName(to))
}

const microsPerDay = 86400_000_000

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// castScalar converts between BOOLEAN, the numbers, DATE and TIMESTAMP
// through float64/int64/decimal intermediates.
func castScalar(arr arrow.Array, to arrow.DataType, try bool) (arrow.Array, error) {
	n := arr.Len()
	from := arr.DataType()
	var valid *memory.Buffer
	if arr.NullN() > 0 {
		valid, _ = validityAnd(n, arr)
	}
	// Decimal targets and sources keep exactness where they can.
	if to.ID() == arrow.DECIMAL128 {
		return castToDecimal(arr, to.(*arrow.Decimal128Type), valid, try)
	}
	if from.ID() == arrow.DECIMAL128 {
		scale := from.(*arrow.Decimal128Type).Scale
		d := decs(arr)
		switch to.ID() {
		case arrow.INT32, arrow.INT64, arrow.TIMESTAMP, arrow.BOOL:
			ints := make([]int64, n)
			nw := &narrowing{valid: valid, n: n, try: try, to: to}
			for i, v := range d {
				if scale > 0 {
					v = v.ReduceScaleBy(scale, false)
				} else if scale < 0 {
					v = v.IncreaseScaleBy(-scale)
				}
				if hi, lo := v.HighBits(), v.LowBits(); hi == 0 && lo <= math.MaxInt64 || hi == -1 && lo > math.MaxInt64 {
					ints[i] = int64(lo)
				} else if nw.ok(i) {
					if err := nw.fail(i, d[i].ToString(scale)); err != nil {
						return nil, err
					}
				}
			}
			return fromInt64s(ints, to, nw.valid, try)
		}
		fs := make([]float64, n)
		for i, v := range d {
			fs[i] = v.ToFloat64(scale)
		}
		return fromFloat64s(fs, to, valid, try)
	}
	switch from.ID() {
	case arrow.FLOAT64:
		return fromFloat64s(f64s(arr), to, valid, try)
	case arrow.BOOL:
		b := arr.(*array.Boolean)
		ints := make([]int64, n)
		for i := range ints {
			if b.Value(i) {
				ints[i] = 1
			}
		}
		return fromInt64s(ints, to, valid, try)
	case arrow.INT32:
		v := i32s(arr)
		ints := make([]int64, n)
		for i := range ints {
			ints[i] = int64(v[i])
		}
		return fromInt64s(ints, to, valid, try)
	case arrow.INT64:
		return fromInt64s(i64s(arr), to, valid, try)
	case arrow.TIMESTAMP:
		us := i64s(arr)
		switch to.ID() {
		case arrow.DATE32:
			out := make([]arrow.Date32, n)
			for i, v := range us {
				out[i] = arrow.Date32(floorDiv(v, microsPerDay))
			}
			return fixedArray(to, out, valid), nil
		case arrow.FLOAT64:
			out := make([]float64, n)
			for i, v := range us {
				out[i] = float64(v) / 1e6
			}
			return fixedArray(to, out, valid), nil
		}
		secs := make([]int64, n)
		for i, v := range us {
			secs[i] = floorDiv(v, 1e6)
		}
		return fromInt64s(secs, to, valid, try)
	case arrow.DATE32:
		days := i32s(arr)
		switch to.ID() {
		case arrow.TIMESTAMP:
			out := make([]arrow.Timestamp, n)
			for i, v := range days {
				out[i] = arrow.Timestamp(int64(v) * microsPerDay)
			}
			return fixedArray(to, out, valid), nil
		}
	}
	if valid != nil {
		valid.Release()
	}
	return nil, fmt.Errorf("cannot cast %s to %s", sqlName(from), sqlName(to))
}

// narrowing handles values that do not fit the target type: with try
// they become NULL (TRY_CAST), otherwise the first one fails the cast, as
// an unparsable string does (Spark's ANSI mode) rather than wrapping.
type narrowing struct {
	valid *memory.Buffer // nil while every value is valid
	n     int
	try   bool
	to    arrow.DataType
}

// ok reports whether row i is not NULL (NULL rows may hold any value).
func (nw *narrowing) ok(i int) bool {
	return nw.valid == nil || bitutil.BitIsSet(nw.valid.Bytes(), i)
}

// fail nulls row i under try, else returns the error (releasing valid).
func (nw *narrowing) fail(i int, v string) error {
	if !nw.try {
		if nw.valid != nil {
			nw.valid.Release()
			nw.valid = nil
		}
		return &CastError{Msg: fmt.Sprintf("cannot cast %s to %s: value out of range", v, sqlName(nw.to))}
	}
	if nw.valid == nil {
		nw.valid = newValidity(nw.n)
	}
	bitutil.ClearBit(nw.valid.Bytes(), i)
	return nil
}

// fromInt64s converts integer values (seconds for TIMESTAMP) to type to;
// values out of range are NULL under try, else an error.
func fromInt64s(v []int64, to arrow.DataType, valid *memory.Buffer, try bool) (arrow.Array, error) {
	n := len(v)
	nw := &narrowing{valid: valid, n: n, try: try, to: to}
	switch to.ID() {
	case arrow.INT64:
		out := make([]int64, n)
		copy(out, v)
		return fixedArray(to, out, valid), nil
	case arrow.INT32:
		out := make([]int32, n)
		for i, x := range v {
			if x >= math.MinInt32 && x <= math.MaxInt32 {
				out[i] = int32(x)
			} else if nw.ok(i) {
				if err := nw.fail(i, strconv.FormatInt(x, 10)); err != nil {
					return nil, err
				}
			}
		}
		return fixedArray(to, out, nw.valid), nil
	case arrow.FLOAT64:
		out := make([]float64, n)
		for i, x := range v {
			out[i] = float64(x)
		}
		return fixedArray(to, out, valid), nil
	case arrow.BOOL:
		bits := newBits(n)
		for i, x := range v {
			setBit(bits, i, x != 0)
		}
		return boolArray(bits, n, valid), nil
	case arrow.TIMESTAMP:
		out := make([]arrow.Timestamp, n)
		for i, x := range v {
			if x >= math.MinInt64/1_000_000 && x <= math.MaxInt64/1_000_000 {
				out[i] = arrow.Timestamp(x * 1e6)
			} else if nw.ok(i) {
				if err := nw.fail(i, strconv.FormatInt(x, 10)); err != nil {
					return nil, err
				}
			}
		}
		return fixedArray(to, out, nw.valid), nil
	}
	if valid != nil {
		valid.Release()
	}
	return nil, fmt.Errorf("cannot cast BIGINT to %s", sqlName(to))
}

// fromFloat64s converts doubles to type to. To the integers the fraction
// is truncated; NaN, infinities and values out of range are NULL under
// try, else an error (Spark's ANSI casts).
func fromFloat64s(v []float64, to arrow.DataType, valid *memory.Buffer, try bool) (arrow.Array, error) {
	n := len(v)
	nw := &narrowing{valid: valid, n: n, try: try, to: to}
	fail := func(i int, x float64) error {
		return nw.fail(i, strconv.FormatFloat(x, 'g', -1, 64))
	}
	switch to.ID() {
	case arrow.FLOAT64:
		out := make([]float64, n)
		copy(out, v)
		return fixedArray(to, out, valid), nil
	case arrow.INT32:
		out := make([]int32, n)
		for i, x := range v {
			if t := math.Trunc(x); t >= math.MinInt32 && t <= math.MaxInt32 {
				out[i] = int32(t)
			} else if nw.ok(i) {
				if err := fail(i, x); err != nil {
					return nil, err
				}
			}
		}
		return fixedArray(to, out, nw.valid), nil
	case arrow.INT64:
		out := make([]int64, n)
		for i, x := range v {
			// -2^63 is exact as a double; 2^63 is the first value above MaxInt64.
			if t := math.Trunc(x); t >= math.MinInt64 && t < math.MaxInt64 {
				out[i] = int64(t)
			} else if nw.ok(i) {
				if err := fail(i, x); err != nil {
					return nil, err
				}
			}
		}
		return fixedArray(to, out, nw.valid), nil
	case arrow.BOOL:
		bits := newBits(n)
		for i, x := range v {
			setBit(bits, i, x != 0)
		}
		return boolArray(bits, n, valid), nil
	case arrow.TIMESTAMP:
		out := make([]arrow.Timestamp, n)
		for i, x := range v {
			out[i] = arrow.Timestamp(math.Round(x * 1e6))
		}
		return fixedArray(to, out, valid), nil
	}
	if valid != nil {
		valid.Release()
	}
	return nil, fmt.Errorf("cannot cast DOUBLE to %s", sqlName(to))
}

func castToDecimal(arr arrow.Array, dt *arrow.Decimal128Type, valid *memory.Buffer, try bool) (arrow.Array, error) {
	n := arr.Len()
	out := make([]decimal128.Num, n)
	valid = ensureValidity(valid, n)
	vb := valid.Bytes()
	bad := func(i int, shown string) error {
		if try {
			bitutil.ClearBit(vb, i)
			return nil
		}
		valid.Release()
		return castError(shown, dt)
	}
	switch arr.DataType().ID() {
	case arrow.DECIMAL128:
		fs := arr.DataType().(*arrow.Decimal128Type).Scale
		for i, v := range decs(arr) {
			if !bitutil.BitIsSet(vb, i) {
				continue
			}
			var err error
			if fs > dt.Scale {
				out[i] = v.ReduceScaleBy(fs-dt.Scale, true)
			} else {
				out[i], err = v.Rescale(fs, dt.Scale)
			}
			if err != nil || !out[i].FitsInPrecision(dt.Precision) {
				if e := bad(i, v.ToString(fs)); e != nil {
					return nil, e
				}
			}
		}
	case arrow.FLOAT64:
		for i, v := range f64s(arr) {
			if !bitutil.BitIsSet(vb, i) {
				continue
			}
			d, err := decimal128.FromFloat64(v, dt.Precision, dt.Scale)
			out[i] = d
			if err != nil {
				if e := bad(i, strconv.FormatFloat(v, 'g', -1, 64)); e != nil {
					return nil, e
				}
			}
		}
	case arrow.INT32, arrow.INT64, arrow.BOOL:
		var ints []int64
		switch arr.DataType().ID() {
		case arrow.INT64:
			ints = i64s(arr)
		case arrow.INT32:
			for _, v := range i32s(arr) {
				ints = append(ints, int64(v))
			}
		default:
			b := arr.(*array.Boolean)
			ints = make([]int64, n)
			for i := range ints {
				if b.Value(i) {
					ints[i] = 1
				}
			}
		}
		for i, v := range ints {
			if !bitutil.BitIsSet(vb, i) {
				continue
			}
			d, err := decimal128.FromI64(v).Rescale(0, dt.Scale)
			out[i] = d
			if err != nil || !d.FitsInPrecision(dt.Precision) {
				if e := bad(i, strconv.FormatInt(v, 10)); e != nil {
					return nil, e
				}
			}
		}
	default:
		valid.Release()
		return nil, fmt.Errorf("cannot cast %s to %s", sqlName(arr.DataType()), sqlName(dt))
	}
	return fixedArray(arrow.DataType(dt), out, valid), nil
}

func castList(ctx context.Context, arr *array.List, to *arrow.ListType, try bool) (arrow.Array, error) {
	vals, err := Cast(ctx, arr.ListValues(), to.Elem(), try)
	if err != nil {
		return nil, err
	}
	defer vals.Release()
	d := arr.Data()
	nd := array.NewData(to, d.Len(), d.Buffers(), []arrow.ArrayData{vals.Data()}, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd), nil
}

func castStruct(ctx context.Context, arr *array.Struct, to *arrow.StructType, try bool) (arrow.Array, error) {
	d := arr.Data()
	kids := make([]arrow.ArrayData, arr.NumField())
	for i := range kids {
		f := array.MakeFromData(d.Children()[i])
		c, err := Cast(ctx, f, to.Field(i).Type, try)
		f.Release()
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", to.Field(i).Name, err)
		}
		defer c.Release()
		kids[i] = c.Data()
	}
	nd := array.NewData(to, d.Len(), d.Buffers()[:1], kids, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd), nil
}
