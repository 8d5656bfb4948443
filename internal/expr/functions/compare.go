package functions

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// ComparisonType decides the type two operands are compared in: their
// common type, or, when one side is a STRING and the other a number,
// BOOLEAN, DATE or TIMESTAMP, the other side's type (the string is cast,
// so ts > '2024-01-01' compares timestamps).
func ComparisonType(op string, a, b arrow.DataType) (arrow.DataType, error) {
	a, b = types.Normalize(a), types.Normalize(b)
	if t, ok := types.Common(a, b); ok {
		if t.ID() == arrow.NULL {
			t = types.Int
		}
		return t, nil
	}
	castable := func(t arrow.DataType) bool {
		return types.IsNumeric(t) || types.IsTemporal(t) || t.ID() == arrow.BOOL
	}
	switch {
	case a.ID() == arrow.STRING && castable(b):
		return b, nil
	case b.ID() == arrow.STRING && castable(a):
		return a, nil
	}
	return nil, applyErr(op, a, b)
}

func bindCompare(op string) Binder {
	return func(args []Arg) (*Bound, error) {
		t, err := ComparisonType(op, args[0].Type, args[1].Type)
		if err != nil {
			return nil, err
		}
		k, err := compareKernel(op, t)
		if err != nil {
			return nil, err
		}
		return &Bound{Type: types.Boolean, Casts: []arrow.DataType{t, t}, Eval: k}, nil
	}
}

func compareKernel(op string, t arrow.DataType) (Kernel, error) {
	ordered := op != "=" && op != "<>" && op != "<=>"
	switch t.ID() {
	case arrow.INT32, arrow.DATE32:
		return cmpOrdered(op, i32s), nil
	case arrow.INT64, arrow.TIMESTAMP:
		return cmpOrdered(op, i64s), nil
	case arrow.FLOAT64:
		return cmpOrdered(op, f64s), nil
	case arrow.STRING:
		return cmpOrdered(op, func(a arrow.Array) *array.String { return a.(*array.String) }), nil
	case arrow.BINARY:
		return cmpOrdered(op, func(a arrow.Array) binaryVals { return binaryVals{a.(*array.Binary)} }), nil
	case arrow.DECIMAL128:
		return cmpRows(op, func(a, b arrow.Array, i int) int {
			return decs(a)[i].Cmp(decs(b)[i])
		}), nil
	case arrow.BOOL:
		return cmpRows(op, func(a, b arrow.Array, i int) int {
			x, y := a.(*array.Boolean).Value(i), b.(*array.Boolean).Value(i)
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}), nil
	}
	if t.ID() == arrow.LIST || t.ID() == arrow.STRUCT {
		// Element by element (order.go), never by printed form: [9] < [10].
		c, err := Order(t)
		if err != nil {
			return nil, fmt.Errorf("cannot apply '%s' to %s: %w", op, sqlName(t), err)
		}
		return cmpRows(op, func(a, b arrow.Array, i int) int { return c(a, i, b, i) }), nil
	}
	if ordered {
		return nil, fmt.Errorf("cannot apply '%s' to %s: the type has no order", op, sqlName(t))
	}
	// Equality of intervals and nested values compares Go values.
	return cmpRows(op, func(a, b arrow.Array, i int) int {
		if sameValue(types.ValueAt(a, i), types.ValueAt(b, i)) {
			return 0
		}
		return 1
	}), nil
}

// cmpResult finishes a comparison: NULL where either side is NULL, except
// for the null-safe <=>, which is never NULL.
func cmpResult(op string, n int, bits []byte, a, b arrow.Array) arrow.Array {
	if op != "<=>" {
		valid, _ := validityAnd(n, a, b)
		return boolArray(bits, n, valid)
	}
	if a.NullN() > 0 || b.NullN() > 0 {
		va, vb := validBytes(a), validBytes(b)
		for i := 0; i < n; i++ {
			x, y := isValid(va, i), isValid(vb, i)
			if !x || !y {
				if x == y {
					bits[i>>3] |= 1 << (uint(i) & 7)
				} else {
					bits[i>>3] &^= 1 << (uint(i) & 7)
				}
			}
		}
	}
	return boolArray(bits, n, nil)
}

type binaryVals struct{ *array.Binary }

type ordered interface {
	~int32 | ~int64 | ~float64
}

// cmpOrdered compares typed slices (or string arrays) with one tight loop
// per operator, packing eight results per byte.
func cmpOrdered[V any](op string, vals func(arrow.Array) V) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		bits := newBits(n)
		switch x := any(vals(args[0])).(type) {
		case []int32:
			cmpSlices(op, x[:n], any(vals(args[1])).([]int32)[:n], bits)
		case []int64:
			cmpSlices(op, x[:n], any(vals(args[1])).([]int64)[:n], bits)
		case []float64:
			y := any(vals(args[1])).([]float64)[:n]
			if hasNaN(x[:n]) || hasNaN(y) {
				// Spark's order: NaN equals NaN and is above every number.
				cmpFunc(op, n, bits, func(i int) int { return FloatOrder(x[i], y[i]) })
			} else {
				cmpSlices(op, x[:n], y, bits)
			}
		case *array.String:
			y := any(vals(args[1])).(*array.String)
			cmpFunc(op, n, bits, func(i int) int { return compareStrings(x.Value(i), y.Value(i)) })
		case binaryVals:
			y := any(vals(args[1])).(binaryVals)
			cmpFunc(op, n, bits, func(i int) int { return compareStrings(string(x.Value(i)), string(y.Value(i))) })
		}
		return cmpResult(op, n, bits, args[0], args[1]), nil
	}
}

// sameValue is SQL equality of two non-NULL Go values: NaN equals NaN
// (Spark), anything else compares deeply.
func sameValue(a, b any) bool {
	if x, ok := a.(float64); ok {
		if y, ok := b.(float64); ok {
			return FloatOrder(x, y) == 0
		}
	}
	return reflect.DeepEqual(a, b)
}

// hasNaN reports whether v holds a NaN (NULL slots included: a NaN
// there only costs the slower FloatOrder loop, whose result is masked).
func hasNaN(v []float64) bool {
	for _, f := range v {
		if f != f {
			return true
		}
	}
	return false
}

func compareStrings(a, b string) int {
	switch {
	case a == b:
		return 0
	case a < b:
		return -1
	}
	return 1
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func cmpSlices[T ordered](op string, a, b []T, bits []byte) {
	n := len(a)
	b = b[:n]
	switch op {
	case "=", "<=>":
		for i := 0; i < n; i++ {
			bits[i>>3] |= b2u(a[i] == b[i]) << (uint(i) & 7)
		}
	case "<>":
		for i := 0; i < n; i++ {
			bits[i>>3] |= b2u(a[i] != b[i]) << (uint(i) & 7)
		}
	case "<":
		for i := 0; i < n; i++ {
			bits[i>>3] |= b2u(a[i] < b[i]) << (uint(i) & 7)
		}
	case "<=":
		for i := 0; i < n; i++ {
			bits[i>>3] |= b2u(a[i] <= b[i]) << (uint(i) & 7)
		}
	case ">":
		for i := 0; i < n; i++ {
			bits[i>>3] |= b2u(a[i] > b[i]) << (uint(i) & 7)
		}
	case ">=":
		for i := 0; i < n; i++ {
			bits[i>>3] |= b2u(a[i] >= b[i]) << (uint(i) & 7)
		}
	}
}

func cmpFunc(op string, n int, bits []byte, cmp func(i int) int) {
	for i := 0; i < n; i++ {
		c := cmp(i)
		var r bool
		switch op {
		case "=", "<=>":
			r = c == 0
		case "<>":
			r = c != 0
		case "<":
			r = c < 0
		case "<=":
			r = c <= 0
		case ">":
			r = c > 0
		case ">=":
			r = c >= 0
		}
		bits[i>>3] |= b2u(r) << (uint(i) & 7)
	}
}

func cmpRows(op string, cmp func(a, b arrow.Array, i int) int) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		bits := newBits(n)
		a, b := args[0], args[1]
		va, vb := validBytes(a), validBytes(b)
		cmpFunc(op, n, bits, func(i int) int {
			if !isValid(va, i) || !isValid(vb, i) {
				return 1 // masked below; avoids reading NULL slots
			}
			return cmp(a, b, i)
		})
		return cmpResult(op, n, bits, a, b), nil
	}
}

// bindBetween resolves x BETWEEN lo AND hi as lo <= x AND x <= hi.
func bindBetween(args []Arg) (*Bound, error) {
	t, err := ComparisonType("between", args[0].Type, args[1].Type)
	if err != nil {
		return nil, err
	}
	if t, err = ComparisonType("between", t, args[2].Type); err != nil {
		return nil, err
	}
	ge, err := compareKernel(">=", t)
	if err != nil {
		return nil, err
	}
	le, _ := compareKernel("<=", t)
	return &Bound{Type: types.Boolean, Casts: []arrow.DataType{t, t, t}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x, err := ge(ctx, n, args[:2])
		if err != nil {
			return nil, err
		}
		defer x.Release()
		y, err := le(ctx, n, []arrow.Array{args[0], args[2]})
		if err != nil {
			return nil, err
		}
		defer y.Release()
		return and3(n, x.(*array.Boolean), y.(*array.Boolean)), nil
	}}, nil
}
