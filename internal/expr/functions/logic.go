package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// boolBits returns a BOOLEAN array's value and validity bitmaps, both
// starting at bit 0 (copied when the array is a slice at an odd offset).
// valid is nil when every element is valid.
func boolBits(a arrow.Array) (vals, valid []byte) {
	n := a.Len()
	if a.DataType().ID() == arrow.NULL {
		return newBits(n), newBits(n)
	}
	off := a.Data().Offset()
	raw := a.Data().Buffers()[1].Bytes()
	if off%8 == 0 {
		vals = raw[off/8:]
	} else {
		vals = newBits(n)
		bitutil.CopyBitmap(raw, off, n, vals, 0)
	}
	return vals, validBytes(a)
}

func asBool(t arrow.DataType, op string) error {
	if t.ID() != arrow.BOOL && t.ID() != arrow.NULL {
		return fmt.Errorf("%s expects BOOLEAN, got %s", op, sqlName(t))
	}
	return nil
}

func bindLogic(op string) Binder {
	return func(args []Arg) (*Bound, error) {
		for _, a := range args {
			if err := asBool(a.Type, "'"+op+"'"); err != nil {
				return nil, err
			}
		}
		casts := make([]arrow.DataType, len(args))
		for i := range casts {
			casts[i] = types.Boolean
		}
		return &Bound{Type: types.Boolean, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			switch op {
			case "and":
				return and3(n, args[0], args[1]), nil
			case "or":
				return or3(n, args[0], args[1]), nil
			}
			vals, valid := boolBits(args[0])
			out := newBits(n)
			for i := range out {
				out[i] = ^vals[i]
			}
			return boolArray(out, n, copyValidity(valid, n)), nil
		}}, nil
	}
}

func copyValidity(valid []byte, n int) *memory.Buffer {
	if valid == nil {
		return nil
	}
	buf := newValidity(n)
	bitutil.CopyBitmap(valid, 0, n, buf.Bytes(), 0)
	return buf
}

// and3 is SQL's three-valued AND: FALSE wins over NULL.
func and3(n int, a, b arrow.Array) arrow.Array {
	va, ma := boolBits(a)
	vb, mb := boolBits(b)
	nb := len(newBits(n))
	out := make([]byte, nb)
	for i := 0; i < nb; i++ {
		out[i] = va[i] & vb[i]
	}
	if ma == nil && mb == nil {
		return boolArray(out, n, nil)
	}
	valid := newValidity(n)
	vv := valid.Bytes()
	for i := 0; i < nb; i++ {
		xa, xb := byte(0xff), byte(0xff)
		if ma != nil {
			xa = ma[i]
		}
		if mb != nil {
			xb = mb[i]
		}
		falseA := xa &^ va[i]
		falseB := xb &^ vb[i]
		vv[i] = (xa & xb) | falseA | falseB
		out[i] &= xa & xb
	}
	return boolArray(out, n, valid)
}

// or3 is SQL's three-valued OR: TRUE wins over NULL.
func or3(n int, a, b arrow.Array) arrow.Array {
	va, ma := boolBits(a)
	vb, mb := boolBits(b)
	nb := len(newBits(n))
	out := make([]byte, nb)
	if ma == nil && mb == nil {
		for i := 0; i < nb; i++ {
			out[i] = va[i] | vb[i]
		}
		return boolArray(out, n, nil)
	}
	valid := newValidity(n)
	vv := valid.Bytes()
	for i := 0; i < nb; i++ {
		xa, xb := byte(0xff), byte(0xff)
		if ma != nil {
			xa = ma[i]
		}
		if mb != nil {
			xb = mb[i]
		}
		trueA := xa & va[i]
		trueB := xb & vb[i]
		vv[i] = (xa & xb) | trueA | trueB
		out[i] = trueA | trueB
	}
	return boolArray(out, n, valid)
}

// bindIsNull covers is_null, is_not_null, is_true, is_false,
// is_not_true and is_not_false: never NULL themselves.
func bindIsNull(op string) Binder {
	return func(args []Arg) (*Bound, error) {
		var casts []arrow.DataType
		if op != "is_null" && op != "is_not_null" {
			if err := asBool(args[0].Type, op); err != nil {
				return nil, err
			}
			casts = []arrow.DataType{types.Boolean}
		}
		return &Bound{Type: types.Boolean, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			a := args[0]
			valid := validBytes(a)
			out := newBits(n)
			var vals []byte
			if op != "is_null" && op != "is_not_null" {
				vals, _ = boolBits(a)
			}
			for i := 0; i < n; i++ {
				ok := isValid(valid, i)
				var r bool
				switch op {
				case "is_null":
					r = !ok
				case "is_not_null":
					r = ok
				case "is_true":
					r = ok && bitutil.BitIsSet(vals, i)
				case "is_false":
					r = ok && !bitutil.BitIsSet(vals, i)
				case "is_not_true":
					r = !ok || !bitutil.BitIsSet(vals, i)
				case "is_not_false":
					r = !ok || bitutil.BitIsSet(vals, i)
				}
				setBit(out, i, r)
			}
			return boolArray(out, n, nil), nil
		}}, nil
	}
}
