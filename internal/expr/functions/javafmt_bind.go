package functions

// javafmt.go: java.util.Formatter, as Spark's format_string/printf use
// it (Locale.US). Spark hands the Formatter its internal values, so the
// Java class of each argument follows the SQL type:
//
//	BOOLEAN Boolean   TINYINT Byte   SMALLINT Short   INT, DATE Integer
//	BIGINT, TIMESTAMP Long (micros)  FLOAT Float      DOUBLE Double
//	DECIMAL Spark's Decimal (so %s only: %d %f %e refuse it)
//	STRING UTF8String (%s only)      ARRAY, STRUCT, MAP Spark's data
//
// and each conversion accepts the classes Java accepts; anything else
// is an error naming the function, the conversion and the SQL type
// (Java: "f != java.lang.Integer"). Floating-point conversions round
// half-up on the shortest decimal digits of the double, as Java does
// (%.1f of 0.15 is 0.2, %.0f of 2.5 is 3).

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

func longHash(v int64) int32 { return int32(v ^ int64(uint64(v)>>32)) }

func doubleHash(x float64) int32 {
	if math.IsNaN(x) {
		x = math.NaN()
	}
	return longHash(int64(math.Float64bits(x)))
}

func floatHash(x float32) int32 {
	if x != x {
		return 0x7fc00000
	}
	return int32(math.Float32bits(x))
}

// javaHashCode is arg.hashCode() for %h; ok is false for values whose
// hash is Spark's internal layout (arrays, maps, structs, binary).
func javaHashCode(a jfArg) (int32, bool) {
	switch a.kind {
	case jfBool:
		if a.i != 0 {
			return 1231, true
		}
		return 1237, true
	case jfByte, jfShort, jfInt:
		return int32(a.i), true
	case jfLong:
		return longHash(a.i), true
	case jfFloat:
		return floatHash(float32(a.f)), true
	case jfDouble:
		return doubleHash(a.f), true
	case jfString:
		return sparkMurmur3Bytes([]byte(a.s), 42), true
	case jfDecimal:
		return scalaBigDecimalHash(a.s), true
	}
	return 0, false
}

// scalaPrimitiveHash is Scala's ## of a long: its int value when it fits.
func scalaPrimitiveHash(v int64) int32 {
	if v == int64(int32(v)) {
		return int32(v)
	}
	return longHash(v)
}

// javaBigIntegerHash is BigInteger.hashCode.
func javaBigIntegerHash(x *big.Int) int32 {
	var h int32
	mag := new(big.Int).Abs(x).Bytes()
	// 32-bit words, most significant first.
	for len(mag)%4 != 0 {
		mag = append([]byte{0}, mag...)
	}
	for i := 0; i < len(mag); i += 4 {
		w := uint32(mag[i])<<24 | uint32(mag[i+1])<<16 | uint32(mag[i+2])<<8 | uint32(mag[i+3])
		h = 31*h + int32(w)
	}
	return h * int32(x.Sign())
}

// scalaBigDecimalHash is scala.math.BigDecimal.hashCode (Spark's
// Decimal.hashCode) of a plain decimal text.
func scalaBigDecimalHash(s string) int32 {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0
	}
	if r.IsInt() {
		n := r.Num()
		if n.IsInt64() {
			return scalaPrimitiveHash(n.Int64())
		}
		return javaBigIntegerHash(n)
	}
	d, _ := strconv.ParseFloat(s, 64)
	if !math.IsInf(d, 0) {
		if r2, ok := new(big.Rat).SetString(strconv.FormatFloat(d, 'g', -1, 64)); ok && r2.Cmp(r) == 0 {
			// Scala's ## of a double: int, long, float or double hash.
			switch {
			case d == math.Trunc(d) && math.Abs(d) < 1<<63:
				return scalaPrimitiveHash(int64(d))
			case float64(float32(d)) == d:
				return floatHash(float32(d))
			}
			return doubleHash(d)
		}
	}
	// stripTrailingZeros, then MurmurHash3.mixLast(unscaled.hashCode, scale).
	neg := strings.HasPrefix(s, "-")
	ip, fp, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	fp = strings.TrimRight(fp, "0")
	u, _ := new(big.Int).SetString(ip+fp, 10)
	if neg {
		u.Neg(u)
	}
	k := uint32(len(fp)) * 0xcc9e2d51
	k = bits.RotateLeft32(k, 15) * 0x1b873593
	return int32(uint32(javaBigIntegerHash(u)) ^ k)
}

// format_string(fmt, args...) and printf: java.util.Formatter over
// Spark's internal values (see the top of this file). A NULL format
// gives NULL; NULL arguments print as "null" (false for %b).
func bindFormatString(args []Arg) (*Bound, error) {
	const fn = "format_string"
	casts, err := coerceArgs(fn, args, pString, pAny)
	if err != nil {
		return nil, err
	}
	if p, ok := constString(args[0]); ok {
		if _, err := parseJavaFormat(fn, p); err != nil {
			return nil, fmt.Errorf("%s: %w", fn, err)
		}
	}
	sqls := make([]string, len(args))
	for j, a := range args {
		sqls[j] = sqlName(a.Type)
	}
	return &Bound{Type: types.String, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		if args[0].DataType().ID() == arrow.NULL {
			return nullArray(types.String, n), nil
		}
		fs := args[0].(*array.String)
		b := array.NewStringBuilder(mem)
		defer b.Release()
		var lastFmt string
		var pieces []jfPiece
		jargs := make([]jfArg, len(args)-1)
		for i := 0; i < n; i++ {
			if fs.IsNull(i) {
				b.AppendNull()
				continue
			}
			if f := fs.Value(i); pieces == nil || f != lastFmt {
				p, err := parseJavaFormat(fn, f)
				if err != nil {
					return nil, err
				}
				pieces, lastFmt = p, strings.Clone(f)
			}
			for j := range jargs {
				jargs[j] = jfArgAt(args[j+1], i, sqls[j+1])
			}
			out, err := javaFormat(fn, pieces, jargs)
			if err != nil {
				return nil, err
			}
			b.Append(out)
		}
		return b.NewArray(), nil
	}}, nil
}

// jfArgAt is row i of a as the Java object Spark would pass.
func jfArgAt(a arrow.Array, i int, sql string) jfArg {
	if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
		return jfArg{kind: jfNull, sql: sql}
	}
	if j, ok := jfScalarAt(a, i, sql); ok {
		return j
	}
	var b strings.Builder
	sparkInternalString(&b, a, i)
	return jfArg{kind: jfOther, s: b.String(), sql: sql}
}

// jfScalarAt is jfArgAt for the types Spark passes as a boxed Java
// primitive, a Decimal or a UTF8String.
func jfScalarAt(a arrow.Array, i int, sql string) (jfArg, bool) {
	j, ok := jfScalar(a, i)
	j.sql = sql
	return j, ok
}

func jfScalar(a arrow.Array, i int) (jfArg, bool) {
	switch a := a.(type) {
	case *array.MonthDayNanoInterval:
		// Day-time intervals are Long microseconds, year-month ones
		// Integer months.
		v := a.Value(i)
		switch {
		case v.Months == 0:
			return jfArg{kind: jfLong, i: int64(v.Days)*86_400_000_000 + v.Nanoseconds/1000}, true
		case v.Days == 0 && v.Nanoseconds == 0:
			return jfArg{kind: jfInt, i: int64(v.Months)}, true
		}
		return jfArg{}, false
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit
		return jfArg{kind: jfLong, i: int64(a.Value(i)) * int64(unit.Multiplier()) / 1000}, true
	case *array.Boolean:
		v := int64(0)
		if a.Value(i) {
			v = 1
		}
		return jfArg{kind: jfBool, i: v}, true
	case *array.Int8:
		return jfArg{kind: jfByte, i: int64(a.Value(i))}, true
	case *array.Int16:
		return jfArg{kind: jfShort, i: int64(a.Value(i))}, true
	case *array.Int32:
		return jfArg{kind: jfInt, i: int64(a.Value(i))}, true
	case *array.Int64:
		return jfArg{kind: jfLong, i: a.Value(i)}, true
	case *array.Date32:
		return jfArg{kind: jfInt, i: int64(a.Value(i))}, true
	case *array.Timestamp:
		return jfArg{kind: jfLong, i: int64(a.Value(i))}, true
	case *array.Float32:
		return jfArg{kind: jfFloat, f: float64(a.Value(i))}, true
	case *array.Float64:
		return jfArg{kind: jfDouble, f: a.Value(i)}, true
	case *array.Decimal128:
		return jfArg{kind: jfDecimal, s: a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)}, true
	case *array.String:
		return jfArg{kind: jfString, s: a.Value(i)}, true
	}
	return jfArg{}, false
}

// sparkInternalString is the toString of Spark's generic internal data:
// arrays and structs as [a,b], maps as "keys: [..], values: [..]",
// DATE as days and TIMESTAMP as microseconds, NULL as null.
func sparkInternalString(b *strings.Builder, a arrow.Array, i int) {
	if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
		b.WriteString("null")
		return
	}
	list := func(vals arrow.Array, start, end int) {
		b.WriteByte('[')
		for j := start; j < end; j++ {
			if j > start {
				b.WriteByte(',')
			}
			sparkInternalString(b, vals, j)
		}
		b.WriteByte(']')
	}
	switch a := a.(type) {
	case *array.List:
		s, e := a.ValueOffsets(i)
		list(a.ListValues(), int(s), int(e))
	case *array.LargeList:
		s, e := a.ValueOffsets(i)
		list(a.ListValues(), int(s), int(e))
	case *array.Map:
		s, e := a.ValueOffsets(i)
		b.WriteString("keys: ")
		list(a.Keys(), int(s), int(e))
		b.WriteString(", values: ")
		list(a.Items(), int(s), int(e))
	case *array.Struct:
		b.WriteByte('[')
		for f := 0; f < a.NumField(); f++ {
			if f > 0 {
				b.WriteByte(',')
			}
			sparkInternalString(b, a.Field(f), i)
		}
		b.WriteByte(']')
	case *array.Binary:
		b.Write(a.Value(i))
	default:
		if j, ok := jfScalar(a, i); ok {
			b.WriteString(javaToString(j))
		} else {
			b.WriteString(types.FormatValue(a, i))
		}
	}
}
