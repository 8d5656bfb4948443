package functions

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// Math functions take and return DOUBLE unless noted; ln/log of a
// non-positive number is NULL (Spark).

func doubleUnary(fn string, f func(float64) (float64, bool)) Binder {
	return simple(fn, types.Double, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := f64sOrNil(args[0])
			return fixedResult(types.Double, n, args, func(i int) (float64, bool) { return f(x[i]) }), nil
		}
	}, pDouble)
}

func f64sOrNil(a arrow.Array) []float64 {
	if a.DataType().ID() == arrow.NULL {
		return nil
	}
	return f64s(a)
}

func always(f func(float64) float64) func(float64) (float64, bool) {
	return func(x float64) (float64, bool) { return f(x), true }
}

func positive(f func(float64) float64) func(float64) (float64, bool) {
	return func(x float64) (float64, bool) {
		if x <= 0 {
			return 0, false
		}
		return f(x), true
	}
}

var bindSqrt = doubleUnary("sqrt", always(math.Sqrt))
var bindExp = doubleUnary("exp", always(math.Exp))
var bindLn = doubleUnary("ln", positive(math.Log))
var bindLog10 = doubleUnary("log10", positive(math.Log10))
var bindLog2 = doubleUnary("log2", positive(math.Log2))
var bindSign = doubleUnary("sign", always(func(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}))

// log(x) is ln; log(base, x) as in Spark.
func bindLog(args []Arg) (*Bound, error) {
	if len(args) == 1 {
		return bindLn(args)
	}
	return simple("log", types.Double, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			b, x := f64sOrNil(args[0]), f64sOrNil(args[1])
			return fixedResult(types.Double, n, args, func(i int) (float64, bool) {
				if b[i] <= 0 || x[i] <= 0 || b[i] == 1 {
					return 0, false
				}
				return math.Log(x[i]) / math.Log(b[i]), true
			}), nil
		}
	}, pDouble, pDouble)(args)
}

var bindPower = simple("power", types.Double, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x, y := f64sOrNil(args[0]), f64sOrNil(args[1])
		return fixedResult(types.Double, n, args, func(i int) (float64, bool) { return math.Pow(x[i], y[i]), true }), nil
	}
}, pDouble, pDouble)

func numericArg(fn string, a Arg) (arrow.DataType, error) {
	t := types.Normalize(a.Type)
	if t.ID() == arrow.NULL {
		return types.Int, nil
	}
	if !types.IsNumeric(t) {
		return nil, fmt.Errorf("function %s expects a number, got %s", fn, sqlName(t))
	}
	return t, nil
}

// abs keeps its argument's type.
func bindAbs(args []Arg) (*Bound, error) {
	t, err := numericArg("abs", args[0])
	if err != nil {
		return nil, err
	}
	var k Kernel
	switch t.ID() {
	case arrow.INT32:
		k = absKernel(t, i32s)
	case arrow.INT64:
		k = absKernel(t, i64s)
	case arrow.DECIMAL128:
		k = func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := decs(args[0])
			return fixedResult(t, n, args, func(i int) (decimal128.Num, bool) { return x[i].Abs(), true }), nil
		}
	default:
		k = func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := f64s(args[0])
			return fixedResult(t, n, args, func(i int) (float64, bool) { return math.Abs(x[i]), true }), nil
		}
	}
	return &Bound{Type: t, Casts: []arrow.DataType{t}, Eval: k}, nil
}

// absKernel is |x| as (x ^ m) - m with m the sign mask: no branch, and
// only the smallest integer, whose absolute value does not fit, comes
// out negative.
func absKernel[T int32 | int64](t arrow.DataType, vals func(arrow.Array) []T) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x := vals(args[0])[:n]
		out := make([]T, n)
		var ov T
		shift := uint(unsafe.Sizeof(ov)*8 - 1)
		for i, v := range x {
			m := v >> shift
			r := (v ^ m) - m
			ov |= r
			out[i] = r
		}
		valid, _ := validityAnd(n, args...)
		if ov < 0 {
			if err := firstBad(n, valid, func(i int) error {
				if out[i] < 0 {
					return overflowErr("abs", fmt.Sprintf("abs(%d) does not fit in %s", x[i], sqlName(t)))
				}
				return nil
			}); err != nil {
				return nil, err
			}
		}
		return fixedArray(t, out, valid), nil
	}
}

// floor and ceil: DOUBLE and integers give BIGINT, DECIMAL(p,s) gives
// DECIMAL(p-s+1, 0), as in Spark.
func bindFloorCeil(fn string, f func(float64) float64) Binder {
	return func(args []Arg) (*Bound, error) {
		t, err := numericArg(fn, args[0])
		if err != nil {
			return nil, err
		}
		if t.ID() == arrow.DECIMAL128 {
			d := t.(*arrow.Decimal128Type)
			rt := types.Decimal(min(38, d.Precision-d.Scale+1), 0)
			return &Bound{Type: rt, Casts: []arrow.DataType{t}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				x := decs(args[0])
				return fixedResult(rt, n, args, func(i int) (decimal128.Num, bool) {
					q, r := x[i].Div(pow10(d.Scale))
					if r.Sign() != 0 && (fn == "floor" && x[i].Sign() < 0) {
						q = q.Sub(decimal128.FromI64(1))
					} else if r.Sign() != 0 && fn == "ceil" && x[i].Sign() > 0 {
						q = q.Add(decimal128.FromI64(1))
					}
					return q, true
				}), nil
			}}, nil
		}
		if types.IsInteger(t) {
			return &Bound{Type: types.BigInt, Casts: []arrow.DataType{types.BigInt}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				args[0].Retain()
				return args[0], nil
			}}, nil
		}
		return &Bound{Type: types.BigInt, Casts: []arrow.DataType{types.Double}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := f64s(args[0])
			out := fixedResult(types.BigInt, n, args, func(i int) (int64, bool) {
				if math.IsNaN(x[i]) {
					return 0, false
				}
				return int64(f(x[i])), true
			})
			// 2^63 is the first DOUBLE past BIGINT; -2^63 itself fits.
			if err := firstBad(n, nil, func(i int) error {
				if v := f(x[i]); out.IsValid(i) && (v >= 0x1p63 || v < -0x1p63) {
					return overflowErr(fn, fmt.Sprintf("%s(%v) does not fit in BIGINT", fn, x[i]))
				}
				return nil
			}); err != nil {
				out.Release()
				return nil, err
			}
			return out, nil
		}}, nil
	}
}

func pow10(k int32) decimal128.Num {
	return decimal128.FromI64(1).IncreaseScaleBy(k)
}

// round(x[, d]) rounds half away from zero (Spark's HALF_UP), keeping
// x's type; DECIMAL(p,s) gives DECIMAL(p-s+d+1, d), and a negative d
// rounds to tens, hundreds, ... (round(125, -1) = 130).
func bindRound(args []Arg) (*Bound, error) { return bindRounding("round", false, args) }

// bround(x[, d]) is round with HALF_EVEN (banker's) rounding:
// bround(2.5) = 2, bround(3.5) = 4, bround(125, -1) = 120.
func bindBRound(args []Arg) (*Bound, error) { return bindRounding("bround", true, args) }

// decRound divides x by 10^k, rounding half away from zero or, with
// halfEven, half to even.
func decRound(x decimal128.Num, k int32, halfEven bool) decimal128.Num {
	if !halfEven {
		return x.ReduceScaleBy(k, true)
	}
	if k == 0 {
		return x
	}
	p := pow10(k)
	q, r := x.Div(p)
	twice := r.Abs().Add(r.Abs())
	if c := twice.Cmp(p); c > 0 || c == 0 && q.LowBits()&1 == 1 {
		if x.Sign() < 0 {
			q = q.Sub(decimal128.FromI64(1))
		} else {
			q = q.Add(decimal128.FromI64(1))
		}
	}
	return q
}

func bindRounding(name string, halfEven bool, args []Arg) (*Bound, error) {
	t, err := numericArg(name, args[0])
	if err != nil {
		return nil, err
	}
	digits := int64(0)
	if len(args) == 2 {
		v, ok := args[1].Value.(int64)
		if !args[1].Const {
			return nil, fmt.Errorf("function %s expects a constant number of digits", name)
		}
		if iv, ok32 := args[1].Value.(int32); ok32 {
			v, ok = int64(iv), true
		}
		if !ok || !types.IsInteger(args[1].Type) {
			return nil, fmt.Errorf("function %s expects an integer number of digits", name)
		}
		digits = v
	}
	rnd := math.Round
	if halfEven {
		rnd = math.RoundToEven
	}
	casts := []arrow.DataType{t, nil}[:len(args)]
	scale := math.Pow(10, float64(digits))
	roundF := func(x float64) float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return x
		}
		if digits >= 0 {
			return rnd(x*scale) / scale
		}
		return rnd(x/math.Pow(10, float64(-digits))) * math.Pow(10, float64(-digits))
	}
	// roundQ gives x rounded to a multiple of p = 10^-digits as q (x = q*p).
	roundQ := func(x int64) (q, p int64) {
		p = int64(math.Pow(10, float64(-digits)))
		q, r := x/p, x%p
		if c := 2 * abs64(r); c > p || c == p && (!halfEven || q%2 != 0) {
			if x < 0 {
				q--
			} else {
				q++
			}
		}
		return q, p
	}
	roundI := func(x int64) int64 {
		if digits >= 0 {
			return x
		}
		if digits < -18 {
			return 0
		}
		q, p := roundQ(x)
		return q * p
	}
	// roundFits reports whether x rounds to a value of its type (bits 32
	// or 64): round(9223372036854775807, -1) does not.
	roundFits := func(x int64, bits int) bool {
		if digits >= 0 || digits < -18 {
			return true
		}
		q, p := roundQ(x)
		r, ok := exactOp("*", q, p)
		return ok && (bits == 64 || r >= math.MinInt32 && r <= math.MaxInt32)
	}
	roundErr := func(t arrow.DataType, x int64) error {
		return overflowErr(name, fmt.Sprintf("%s(%d, %d) does not fit in %s", name, x, digits, sqlName(t)))
	}
	switch t.ID() {
	case arrow.INT32:
		return &Bound{Type: t, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := i32s(args[0])
			valid, _ := validityAnd(n, args[0])
			if err := firstBad(n, valid, func(i int) error {
				if !roundFits(int64(x[i]), 32) {
					return roundErr(t, int64(x[i]))
				}
				return nil
			}); err != nil {
				return nil, err
			}
			return fixedResult(t, n, args[:1], func(i int) (int32, bool) { return int32(roundI(int64(x[i]))), true }), nil
		}}, nil
	case arrow.INT64:
		return &Bound{Type: t, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := i64s(args[0])
			valid, _ := validityAnd(n, args[0])
			if err := firstBad(n, valid, func(i int) error {
				if !roundFits(x[i], 64) {
					return roundErr(t, x[i])
				}
				return nil
			}); err != nil {
				return nil, err
			}
			return fixedResult(t, n, args[:1], func(i int) (int64, bool) { return roundI(x[i]), true }), nil
		}}, nil
	case arrow.DECIMAL128:
		d := t.(*arrow.Decimal128Type)
		if digits < 0 {
			// Spark keeps scale 0 and rounds to a multiple of 10^-digits:
			// round(123.456, -1) = 120 as DECIMAL(4,0).
			k := int32(min(-digits, 38))
			rt := types.Decimal(min(38, max(d.Precision-d.Scale+1, k+1)), 0)
			reduce := d.Scale + k
			return &Bound{Type: rt, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				x := decs(args[0])
				return fixedResult(rt, n, args[:1], func(i int) (decimal128.Num, bool) {
					if reduce > 38 {
						return decimal128.Num{}, true
					}
					return decRound(x[i], reduce, halfEven).IncreaseScaleBy(k), true
				}), nil
			}}, nil
		}
		ns := int32(max(0, min(digits, int64(d.Scale))))
		rt := types.Decimal(min(38, d.Precision-d.Scale+ns+1), ns)
		return &Bound{Type: rt, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := decs(args[0])
			return fixedResult(rt, n, args[:1], func(i int) (decimal128.Num, bool) {
				return decRound(x[i], d.Scale-ns, halfEven), true
			}), nil
		}}, nil
	}
	return &Bound{Type: types.Double, Casts: []arrow.DataType{types.Double, nil}[:len(args)], Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x := f64s(args[0])
		return fixedResult(types.Double, n, args[:1], func(i int) (float64, bool) { return roundF(x[i]), true }), nil
	}}, nil
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
