package functions

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// Trigonometric and other DOUBLE functions Spark has beyond math.go's;
// like Spark they give NaN (not NULL) outside their domain.

var (
	bindAcos  = doubleUnary("acos", always(math.Acos))
	bindAcosh = doubleUnary("acosh", always(math.Acosh))
	bindAsin  = doubleUnary("asin", always(math.Asin))
	bindAsinh = doubleUnary("asinh", always(math.Asinh))
	bindAtan  = doubleUnary("atan", always(math.Atan))
	bindAtanh = doubleUnary("atanh", always(math.Atanh))
	bindCbrt  = doubleUnary("cbrt", always(math.Cbrt))
	bindCos   = doubleUnary("cos", always(math.Cos))
	bindCosh  = doubleUnary("cosh", always(math.Cosh))
	bindCot   = doubleUnary("cot", always(func(x float64) float64 { return 1 / math.Tan(x) }))
	bindCsc   = doubleUnary("csc", always(func(x float64) float64 { return 1 / math.Sin(x) }))
	bindSec   = doubleUnary("sec", always(func(x float64) float64 { return 1 / math.Cos(x) }))
	bindSin   = doubleUnary("sin", always(math.Sin))
	bindSinh  = doubleUnary("sinh", always(math.Sinh))
	bindTan   = doubleUnary("tan", always(math.Tan))
	bindTanh  = doubleUnary("tanh", always(math.Tanh))
	bindDeg   = doubleUnary("degrees", always(func(x float64) float64 { return x * 180 / math.Pi }))
	bindRad   = doubleUnary("radians", always(func(x float64) float64 { return x * math.Pi / 180 }))
	bindExpm1 = doubleUnary("expm1", always(math.Expm1))
	bindLog1p = doubleUnary("log1p", func(x float64) (float64, bool) { return math.Log1p(x), x > -1 })
	bindRint  = doubleUnary("rint", always(math.RoundToEven))
)

func doubleBinary(fn string, f func(a, b float64) (float64, bool)) Binder {
	return simple(fn, types.Double, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x, y := f64sOrNil(args[0]), f64sOrNil(args[1])
			return fixedResult(types.Double, n, args, func(i int) (float64, bool) { return f(x[i], y[i]) }), nil
		}
	}, pDouble, pDouble)
}

var (
	bindAtan2 = doubleBinary("atan2", func(a, b float64) (float64, bool) { return math.Atan2(a, b), true })
	bindHypot = doubleBinary("hypot", func(a, b float64) (float64, bool) { return math.Hypot(a, b), true })
	// nanvl(a, b) is b where a is NaN.
	bindNanvl = doubleBinary("nanvl", func(a, b float64) (float64, bool) {
		if math.IsNaN(a) {
			return b, true
		}
		return a, true
	})
)

func doubleConst(fn string, v float64) Binder {
	return simple(fn, types.Double, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			return fixedResult(types.Double, n, nil, func(int) (float64, bool) { return v, true }), nil
		}
	})
}

var (
	bindE  = doubleConst("e", math.E)
	bindPi = doubleConst("pi", math.Pi)
)

var bindIsNaN = func(args []Arg) (*Bound, error) {
	casts, err := coerceArgs("isnan", args, pDouble)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: types.Boolean, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x := f64sOrNil(args[0])
		r := newRows(n, args)
		bitsOut := newBits(n)
		for i := 0; i < n; i++ {
			// isnan(NULL) is false, not NULL (Spark).
			setBit(bitsOut, i, r.ok(i) && math.IsNaN(x[i]))
		}
		return boolArray(bitsOut, n, nil), nil
	}}, nil
}

// intFunc binds a function of BIGINT arguments with a BIGINT result; f
// returns false for NULL.
func intFunc(fn string, nargs int, f func(v []int64) (int64, bool)) Binder {
	params := make([]param, nargs)
	for i := range params {
		params[i] = pInt
	}
	return simple(fn, types.BigInt, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			cols := make([][]int64, len(args))
			for j, a := range args {
				cols[j] = i64At(a)
			}
			v := make([]int64, len(args))
			return fixedResult(types.BigInt, n, args, func(i int) (int64, bool) {
				for j := range cols {
					v[j] = cols[j][i]
				}
				return f(v)
			}), nil
		}
	}, params...)
}

var (
	// factorial is NULL outside 0..20, as in Spark.
	bindFactorial = intFunc("factorial", 1, func(v []int64) (int64, bool) {
		if v[0] < 0 || v[0] > 20 {
			return 0, false
		}
		r := int64(1)
		for k := int64(2); k <= v[0]; k++ {
			r *= k
		}
		return r, true
	})
	bindBitCount = intFunc("bit_count", 1, func(v []int64) (int64, bool) { return int64(bits.OnesCount64(uint64(v[0]))), true })
	bindBitGet   = intFunc("bit_get", 2, func(v []int64) (int64, bool) {
		if v[1] < 0 || v[1] > 63 {
			return 0, false
		}
		return (v[0] >> uint(v[1])) & 1, true
	})
)

// pmod is the non-negative remainder: BIGINT for integers, DOUBLE else.
func bindPmod(args []Arg) (*Bound, error) {
	allInt := true
	for _, a := range args {
		t := types.Normalize(a.Type)
		if t.ID() != arrow.NULL && !types.IsInteger(t) {
			allInt = false
		}
	}
	if allInt {
		return intFunc("pmod", 2, func(v []int64) (int64, bool) {
			if v[1] == 0 {
				return 0, false
			}
			r := v[0] % v[1]
			if r < 0 {
				r += abs64(v[1])
			}
			return r, true
		})(args)
	}
	return doubleBinary("pmod", func(a, b float64) (float64, bool) {
		if b == 0 {
			return 0, false
		}
		r := math.Mod(a, b)
		if r < 0 {
			r += math.Abs(b)
		}
		return r, true
	})(args)
}

// width_bucket(v, min, max, n): the bucket of v among n equal buckets,
// 0 below and n+1 above (Spark).
var bindWidthBucket = func(args []Arg) (*Bound, error) {
	casts, err := coerceArgs("width_bucket", args, pDouble, pDouble, pDouble, pInt)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: types.BigInt, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		v, lo, hi, nb := f64sOrNil(args[0]), f64sOrNil(args[1]), f64sOrNil(args[2]), i64At(args[3])
		return fixedResult(types.BigInt, n, args, func(i int) (int64, bool) {
			x, a, b, k := v[i], lo[i], hi[i], nb[i]
			if k <= 0 || a == b || math.IsNaN(x) || math.IsInf(a, 0) || math.IsInf(b, 0) {
				return 0, false
			}
			if a < b {
				switch {
				case x < a:
					return 0, true
				case x >= b:
					return k + 1, true
				}
				return int64(float64(k)*(x-a)/(b-a)) + 1, true
			}
			switch {
			case x > a:
				return 0, true
			case x <= b:
				return k + 1, true
			}
			return int64(float64(k)*(a-x)/(a-b)) + 1, true
		}), nil
	}}, nil
}

// bin is the binary digits of a BIGINT (two's complement when negative).
var bindBin = simple("bin", types.String, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x := i64At(args[0])
		return strResult(n, args, false, func(i int) (string, bool) { return strconv.FormatUint(uint64(x[i]), 2), true }), nil
	}
}, pInt)

// conv(num, from_base, to_base) converts between bases 2..36; a
// negative to_base prints a signed result (Spark).
var bindConv = simple("conv", types.String, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s := stringsOf(args[0])
		from, to := i64At(args[1]), i64At(args[2])
		return strResult(n, args, false, func(i int) (string, bool) {
			fb, tb := from[i], to[i]
			if fb < 2 || fb > 36 || abs64(tb) < 2 || abs64(tb) > 36 {
				return "", false
			}
			in := strings.TrimSpace(s.Value(i))
			neg := strings.HasPrefix(in, "-")
			in = strings.TrimPrefix(in, "-")
			// Like Spark, parse the longest valid prefix.
			end := 0
			for end < len(in) {
				if _, err := strconv.ParseUint(in[end:end+1], int(fb), 64); err != nil {
					break
				}
				end++
			}
			if end == 0 {
				return "0", true
			}
			u, err := strconv.ParseUint(in[:end], int(fb), 64)
			if err != nil {
				u = math.MaxUint64
			}
			if neg {
				u = -u
			}
			if tb < 0 && int64(u) < 0 {
				return "-" + strings.ToUpper(strconv.FormatUint(-u, int(-tb))), true
			}
			return strings.ToUpper(strconv.FormatUint(u, int(abs64(tb)))), true
		}), nil
	}
}, pString, pInt, pInt)

func stringsOf(a arrow.Array) *array.String { return a.(*array.String) }

// hex of a number is its two's complement digits; of a string or binary,
// two digits per byte. Upper case, as in Spark.
func bindHex(args []Arg) (*Bound, error) {
	t := types.Normalize(args[0].Type)
	if types.IsInteger(t) || t.ID() == arrow.NULL {
		return simple("hex", types.String, func([]Arg) Kernel {
			return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				x := i64At(args[0])
				return strResult(n, args, false, func(i int) (string, bool) {
					return strings.ToUpper(strconv.FormatUint(uint64(x[i]), 16)), true
				}), nil
			}
		}, pInt)(args)
	}
	if t.ID() == arrow.BINARY {
		return &Bound{Type: types.String, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			b := args[0].(*array.Binary)
			return strResult(n, args, false, func(i int) (string, bool) { return strings.ToUpper(hex.EncodeToString(b.Value(i))), true }), nil
		}}, nil
	}
	return simple("hex", types.String, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			s := stringsOf(args[0])
			return strResult(n, args, false, func(i int) (string, bool) { return strings.ToUpper(hex.EncodeToString([]byte(s.Value(i)))), true }), nil
		}
	}, pString)(args)
}

// unhex is the inverse of hex on strings; NULL for a non-hex digit. An odd
// count of digits gets a leading 0 (Spark).
var bindUnhex = simple("unhex", arrow.BinaryTypes.Binary, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s := stringsOf(args[0])
		r := newRows(n, args)
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
		defer b.Release()
		for i := 0; i < n; i++ {
			if !r.ok(i) {
				b.AppendNull()
				continue
			}
			v := s.Value(i)
			if len(v)%2 == 1 {
				v = "0" + v
			}
			out, err := hex.DecodeString(v)
			if err != nil {
				b.AppendNull()
				continue
			}
			b.Append(out)
		}
		return b.NewArray(), nil
	}
}, pString)

// positive(x) is x.
func bindPositive(args []Arg) (*Bound, error) {
	if _, err := numericArg("positive", args[0]); err != nil {
		return nil, err
	}
	return &Bound{Type: types.Normalize(args[0].Type), Eval: identity}, nil
}

func identity(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
	args[0].Retain()
	return args[0], nil
}

// bindCastTo is Spark's type-named functions: int(x) is CAST(x AS INT).
func bindCastTo(name string, to arrow.DataType) Binder {
	return func(args []Arg) (*Bound, error) {
		if !CanCast(args[0].Type, to) {
			return nil, fmt.Errorf("function %s cannot cast %s to %s", name, sqlName(args[0].Type), sqlName(to))
		}
		return &Bound{Type: to, Casts: []arrow.DataType{to}, Eval: identity}, nil
	}
}
