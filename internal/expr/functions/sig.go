package functions

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// param is what a function parameter accepts; coerce gives the type an
// argument of type t is cast to, or nil when it is not accepted.
type param struct {
	name   string
	coerce func(t arrow.DataType) arrow.DataType
}

var (
	// pString takes STRING; numbers, booleans and dates are cast to it as
	// Spark does (upper(123) is '123').
	pString = param{"STRING", func(t arrow.DataType) arrow.DataType {
		if t.ID() == arrow.NULL || types.IsString(t) || types.IsNumeric(t) || types.IsTemporal(t) || t.ID() == arrow.BOOL || t.ID() == arrow.BINARY {
			return types.String
		}
		return nil
	}}
	pInt = param{"INT", func(t arrow.DataType) arrow.DataType {
		if t.ID() == arrow.NULL || types.IsInteger(t) {
			return types.BigInt
		}
		return nil
	}}
	pDouble = param{"DOUBLE", func(t arrow.DataType) arrow.DataType {
		if t.ID() == arrow.NULL || types.IsNumeric(t) {
			return types.Double
		}
		return nil
	}}
	pTimestamp = param{"TIMESTAMP", func(t arrow.DataType) arrow.DataType {
		if t.ID() == arrow.NULL || types.IsTemporal(t) || types.IsString(t) {
			return types.Timestamp
		}
		return nil
	}}
	pDate = param{"DATE", func(t arrow.DataType) arrow.DataType {
		if t.ID() == arrow.NULL || types.IsTemporal(t) || types.IsString(t) {
			return types.Date
		}
		return nil
	}}
	pAny = param{"any", func(t arrow.DataType) arrow.DataType { return t }}
)

// coerceArgs matches args against params (the last one repeats) and
// returns the casts, or an error naming the first mismatch.
func coerceArgs(fn string, args []Arg, params ...param) ([]arrow.DataType, error) {
	casts := make([]arrow.DataType, len(args))
	for i, a := range args {
		p := params[min(i, len(params)-1)]
		to := p.coerce(types.Normalize(a.Type))
		if to == nil {
			return nil, fmt.Errorf("function %s expects %s for argument %d, got %s", fn, p.name, i+1, sqlName(a.Type))
		}
		casts[i] = to
	}
	return casts, nil
}

// simple binds a function with fixed parameter kinds and result type.
func simple(fn string, result arrow.DataType, k func(args []Arg) Kernel, params ...param) Binder {
	return func(args []Arg) (*Bound, error) {
		casts, err := coerceArgs(fn, args, params...)
		if err != nil {
			return nil, err
		}
		return &Bound{Type: result, Casts: casts, Eval: k(args)}, nil
	}
}

// rows is the per-row view kernels use: validity of all arguments and
// typed accessors.
type rows struct {
	n     int
	args  []arrow.Array
	valid [][]byte
}

func newRows(n int, args []arrow.Array) *rows {
	r := &rows{n: n, args: args, valid: make([][]byte, len(args))}
	for i, a := range args {
		if a.DataType().ID() == arrow.NULL {
			r.valid[i] = newBits(n)
		} else {
			r.valid[i] = validBytes(a)
		}
	}
	return r
}

// ok reports whether every argument is non-NULL at row i.
func (r *rows) ok(i int) bool {
	for _, v := range r.valid {
		if v != nil && !isValid(v, i) {
			return false
		}
	}
	return true
}

func (r *rows) null(j, i int) bool { return r.valid[j] != nil && !isValid(r.valid[j], i) }

// strings builds a STRING result: f runs for rows whose arguments are all
// non-NULL (unless nullSafe) and returns the value and whether it is set.
func strResult(n int, args []arrow.Array, nullSafe bool, f func(i int) (string, bool)) arrow.Array {
	r := newRows(n, args)
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if !nullSafe && !r.ok(i) {
			b.AppendNull()
			continue
		}
		if s, ok := f(i); ok {
			b.Append(s)
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray()
}

// fixedResult builds a fixed-width result the same way.
func fixedResult[T arrow.FixedWidthType](t arrow.DataType, n int, args []arrow.Array, f func(i int) (T, bool)) arrow.Array {
	r := newRows(n, args)
	out := make([]T, n)
	valid := newValidity(n)
	vb := valid.Bytes()
	for i := 0; i < n; i++ {
		if !r.ok(i) {
			vb[i>>3] &^= 1 << (uint(i) & 7)
			continue
		}
		v, ok := f(i)
		if !ok {
			vb[i>>3] &^= 1 << (uint(i) & 7)
			continue
		}
		out[i] = v
	}
	return fixedArray(t, out, valid)
}

// boolResult builds a BOOLEAN result the same way.
func boolResult(n int, args []arrow.Array, f func(i int) (bool, bool)) arrow.Array {
	r := newRows(n, args)
	bits := newBits(n)
	valid := newValidity(n)
	vb := valid.Bytes()
	for i := 0; i < n; i++ {
		if !r.ok(i) {
			vb[i>>3] &^= 1 << (uint(i) & 7)
			continue
		}
		v, ok := f(i)
		if !ok {
			vb[i>>3] &^= 1 << (uint(i) & 7)
			continue
		}
		setBit(bits, i, v)
	}
	return boolArray(bits, n, valid)
}

// constString returns a constant STRING argument's value.
func constString(a Arg) (string, bool) {
	if !a.Const {
		return "", false
	}
	s, ok := a.Value.(string)
	return s, ok
}

// i64At reads a BIGINT argument (after casts) at row i.
func i64At(a arrow.Array) []int64 {
	if a.DataType().ID() == arrow.NULL {
		return nil
	}
	return i64s(a)
}
