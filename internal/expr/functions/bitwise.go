package functions

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// Spark's integer operators. & | ^ take their operands at the common
// integer type and return it; ~ keeps its operand's type; the shifts
// (<< >> >>>, also shiftleft, shiftright, shiftrightunsigned) return the
// left operand's type, INT or BIGINT, and take the distance modulo the
// width as Java does; a DIV b is the BIGINT quotient truncated toward
// zero, an error (ANSI) on a zero divisor or a quotient past BIGINT.

// intType is the INT or BIGINT an integer operand computes in; an untyped
// NULL computes as INT.
func intType(t arrow.DataType) (arrow.DataType, bool) {
	t = types.Normalize(t)
	switch t.ID() {
	case arrow.NULL, arrow.INT32:
		return types.Int, true
	case arrow.INT64:
		return types.BigInt, true
	}
	return nil, false
}

func intKernel2[T int32 | int64](t arrow.DataType, vals func(arrow.Array) []T, f func(a, b T) T) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		a, b := vals(args[0])[:n], vals(args[1])[:n]
		out := make([]T, n)
		for i := range out {
			out[i] = f(a[i], b[i])
		}
		valid, _ := validityAnd(n, args[0], args[1])
		return fixedArray(t, out, valid), nil
	}
}

// bindBitwise is a & b, a | b and a ^ b.
func bindBitwise(op string) Binder {
	return func(args []Arg) (*Bound, error) {
		a, oka := intType(args[0].Type)
		b, okb := intType(args[1].Type)
		if !oka || !okb {
			return nil, fmt.Errorf("'%s' needs integer operands, got %s and %s", op, sqlName(args[0].Type), sqlName(args[1].Type))
		}
		t := a
		if b.ID() == arrow.INT64 {
			t = b
		}
		var k Kernel
		if t.ID() == arrow.INT32 {
			k = intKernel2(t, i32s, bitOp[int32](op))
		} else {
			k = intKernel2(t, i64s, bitOp[int64](op))
		}
		return &Bound{Type: t, Casts: []arrow.DataType{t, t}, Eval: k}, nil
	}
}

func bitOp[T int32 | int64](op string) func(a, b T) T {
	switch op {
	case "&":
		return func(a, b T) T { return a & b }
	case "|":
		return func(a, b T) T { return a | b }
	}
	return func(a, b T) T { return a ^ b }
}

// bindBitNot is ~a.
func bindBitNot(args []Arg) (*Bound, error) {
	t, ok := intType(args[0].Type)
	if !ok {
		return nil, fmt.Errorf("'~' needs an integer operand, got %s", sqlName(args[0].Type))
	}
	k := func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		valid, _ := validityAnd(n, args[0])
		if t.ID() == arrow.INT32 {
			x := i32s(args[0])[:n]
			out := make([]int32, n)
			for i := range out {
				out[i] = ^x[i]
			}
			return fixedArray(t, out, valid), nil
		}
		x := i64s(args[0])[:n]
		out := make([]int64, n)
		for i := range out {
			out[i] = ^x[i]
		}
		return fixedArray(t, out, valid), nil
	}
	return &Bound{Type: t, Casts: []arrow.DataType{t}, Eval: k}, nil
}

// bindShift is <<, >> and >>> (name is the function named in errors).
func bindShift(name, op string) Binder {
	return func(args []Arg) (*Bound, error) {
		t, ok := intType(args[0].Type)
		_, okd := intType(args[1].Type)
		if !ok || !okd {
			return nil, fmt.Errorf("%s needs an INT or BIGINT value and an INT distance, got %s and %s", name, sqlName(args[0].Type), sqlName(args[1].Type))
		}
		casts := []arrow.DataType{t, types.Int}
		var k Kernel
		if t.ID() == arrow.INT32 {
			k = func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				a, s := i32s(args[0])[:n], i32s(args[1])[:n]
				out := make([]int32, n)
				for i := range out {
					d := uint(s[i] & 31)
					switch op {
					case "<<":
						out[i] = a[i] << d
					case ">>":
						out[i] = a[i] >> d
					default:
						out[i] = int32(uint32(a[i]) >> d)
					}
				}
				valid, _ := validityAnd(n, args[0], args[1])
				return fixedArray(t, out, valid), nil
			}
		} else {
			k = func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				a, s := i64s(args[0])[:n], i32s(args[1])[:n]
				out := make([]int64, n)
				for i := range out {
					d := uint(s[i] & 63)
					switch op {
					case "<<":
						out[i] = a[i] << d
					case ">>":
						out[i] = a[i] >> d
					default:
						out[i] = int64(uint64(a[i]) >> d)
					}
				}
				valid, _ := validityAnd(n, args[0], args[1])
				return fixedArray(t, out, valid), nil
			}
		}
		return &Bound{Type: t, Casts: casts, Eval: k}, nil
	}
}

// bindIntDiv is a DIV b over integers or decimals.
func bindIntDiv(args []Arg) (*Bound, error) {
	a, b := types.Normalize(args[0].Type), types.Normalize(args[1].Type)
	_, ia := intType(a)
	_, ib := intType(b)
	isDec := func(t arrow.DataType) bool { return t.ID() == arrow.DECIMAL128 }
	if !(ia || isDec(a)) || !(ib || isDec(b)) {
		return nil, fmt.Errorf("DIV needs integer or DECIMAL operands, got %s and %s", sqlName(a), sqlName(b))
	}
	if !isDec(a) && !isDec(b) {
		k := func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x, y := i64s(args[0])[:n], i64s(args[1])[:n]
			valid, _ := validityAnd(n, args[0], args[1])
			out := make([]int64, n)
			valid, err := badRows(n, valid, false, func(i int) error {
				switch {
				case y[i] == 0:
					return &ArithError{DivByZero: true, Detail: fmt.Sprintf("%d div 0", x[i])}
				case x[i] == math.MinInt64 && y[i] == -1:
					return overflowErr("div", fmt.Sprintf("%d div -1 does not fit in BIGINT", x[i]))
				}
				out[i] = x[i] / y[i]
				return nil
			})
			if err != nil {
				return nil, err
			}
			return fixedArray(types.BigInt, out, valid), nil
		}
		return &Bound{Type: types.BigInt, Casts: []arrow.DataType{types.BigInt, types.BigInt}, Eval: k}, nil
	}
	t, ok := types.Common(a, b)
	if !ok || !isDec(t) {
		return nil, applyErr("div", a, b)
	}
	k := func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x, y := args[0].(*array.Decimal128), args[1].(*array.Decimal128)
		valid, _ := validityAnd(n, args[0], args[1])
		out := make([]int64, n)
		valid, err := badRows(n, valid, false, func(i int) error {
			q, yv := new(big.Int), y.Value(i).BigInt()
			xv := x.Value(i).BigInt()
			if yv.Sign() == 0 {
				return &ArithError{DivByZero: true, Detail: fmt.Sprintf("%s div 0", x.ValueStr(i))}
			}
			q.Quo(xv, yv) // same scale on both sides: the scales cancel
			if !q.IsInt64() {
				return overflowErr("div", fmt.Sprintf("%s div %s does not fit in BIGINT", x.ValueStr(i), y.ValueStr(i)))
			}
			out[i] = q.Int64()
			return nil
		})
		if err != nil {
			return nil, err
		}
		return fixedArray(types.BigInt, out, valid), nil
	}
	return &Bound{Type: types.BigInt, Casts: []arrow.DataType{t, t}, Eval: k}, nil
}
