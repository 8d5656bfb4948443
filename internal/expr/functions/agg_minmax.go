package functions

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// min and max work on every orderable type: numbers, STRING, DATE,
// TIMESTAMP, BOOLEAN (min is AND, max is OR). NULLs are skipped.
func makeMin(args []Arg, distinct bool) (*AggBound, error) { return makeMinMax("min", args[0].Type) }
func makeMax(args []Arg, distinct bool) (*AggBound, error) { return makeMinMax("max", args[0].Type) }

func makeMinMax(name string, t arrow.DataType) (*AggBound, error) {
	t = types.Normalize(t)
	isMax := name == "max"
	var nw func() Accumulator
	switch t.ID() {
	case arrow.NULL:
		t = types.Int
		fallthrough
	case arrow.INT32, arrow.DATE32:
		nw = func() Accumulator { return &minMaxAcc[int32]{typ: t, isMax: isMax, vals: i32s} }
	case arrow.INT64, arrow.TIMESTAMP:
		nw = func() Accumulator { return &minMaxAcc[int64]{typ: t, isMax: isMax, vals: i64s} }
	case arrow.FLOAT64:
		nw = func() Accumulator { return &minMaxAcc[float64]{typ: t, isMax: isMax, vals: f64s} }
	case arrow.STRING:
		nw = func() Accumulator { return &minMaxString{isMax: isMax} }
	case arrow.DECIMAL128:
		nw = func() Accumulator { return &minMaxDec{typ: t, isMax: isMax} }
	case arrow.BOOL:
		nw = func() Accumulator { return &boolAcc{any: isMax} }
	case arrow.LIST, arrow.STRUCT, arrow.MAP:
		var err error
		if nw, err = newMinMaxNested(t, isMax); err != nil {
			return nil, fmt.Errorf("%s expects an orderable argument: %w", name, err)
		}
	default:
		return nil, fmt.Errorf("%s expects an orderable argument, got %s", name, sqlName(t))
	}
	return &AggBound{Type: t, Casts: []arrow.DataType{t}, New: nw}, nil
}

type minMaxState[T any] struct {
	Val []T
	Has []bool
}

type minMaxAcc[T int32 | int64 | float64] struct {
	typ   arrow.DataType
	isMax bool
	vals  func(arrow.Array) []T
	st    minMaxState[T]
}

func (m *minMaxAcc[T]) fold(g uint32, v T) {
	switch {
	case !m.st.Has[g]:
		m.st.Val[g], m.st.Has[g] = v, true
	case m.isMax && above(v, m.st.Val[g]), !m.isMax && above(m.st.Val[g], v):
		m.st.Val[g] = v
	}
}

// above is a > b in Spark's order: NaN is above every number (x != x
// only for NaN, and never for the integer types).
func above[T int32 | int64 | float64](a, b T) bool {
	switch {
	case b != b:
		return false
	case a != a:
		return true
	}
	return a > b
}

func (m *minMaxAcc[T]) Update(groups []uint32, args []arrow.Array) error {
	if mg := maxGroup(groups); mg >= 0 {
		m.st.Val = sizeTo(m.st.Val, mg+1)
		m.st.Has = sizeTo(m.st.Has, mg+1)
	}
	if args[0].DataType().ID() == arrow.NULL {
		return nil
	}
	vals := m.vals(args[0])
	vb := validBytes(args[0])
	for i, g := range groups {
		if isValid(vb, i) {
			m.fold(g, vals[i])
		}
	}
	return nil
}

func (m *minMaxAcc[T]) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*minMaxAcc[T])
	if !ok {
		return mergeTypeError(m, other)
	}
	for g, has := range o.st.Has {
		if has {
			t := mapping[g]
			m.st.Val = grow(m.st.Val, t)
			m.st.Has = grow(m.st.Has, t)
			m.fold(t, o.st.Val[g])
		}
	}
	return nil
}

func (m *minMaxAcc[T]) Result(n int) (arrow.Array, error) {
	out := make([]T, n)
	copy(out, m.st.Val)
	bits, _ := validityFromBools(m.st.Has, n)
	return fixedArray(m.typ, out, bufferOf(bits)), nil
}

func (m *minMaxAcc[T]) Snapshot(w io.Writer) error { return snapshotGob(w, &m.st) }
func (m *minMaxAcc[T]) Restore(r io.Reader) error  { return restoreGob(r, &m.st) }

type minMaxString struct {
	isMax bool
	st    minMaxState[string]
}

func (m *minMaxString) fold(g uint32, v string) {
	switch {
	case !m.st.Has[g]:
		m.st.Val[g], m.st.Has[g] = strings.Clone(v), true
	case m.isMax && v > m.st.Val[g], !m.isMax && v < m.st.Val[g]:
		m.st.Val[g] = strings.Clone(v)
	}
}

func (m *minMaxString) Update(groups []uint32, args []arrow.Array) error {
	if mg := maxGroup(groups); mg >= 0 {
		m.st.Val = sizeTo(m.st.Val, mg+1)
		m.st.Has = sizeTo(m.st.Has, mg+1)
	}
	s := args[0].(*array.String)
	vb := validBytes(s)
	for i, g := range groups {
		if isValid(vb, i) {
			m.fold(g, s.Value(i))
		}
	}
	return nil
}

func (m *minMaxString) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*minMaxString)
	if !ok {
		return mergeTypeError(m, other)
	}
	for g, has := range o.st.Has {
		if has {
			t := mapping[g]
			m.st.Val = grow(m.st.Val, t)
			m.st.Has = grow(m.st.Has, t)
			m.fold(t, o.st.Val[g])
		}
	}
	return nil
}

func (m *minMaxString) Result(n int) (arrow.Array, error) {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	for g := 0; g < n; g++ {
		if g < len(m.st.Has) && m.st.Has[g] {
			b.Append(m.st.Val[g])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}

func (m *minMaxString) Snapshot(w io.Writer) error { return snapshotGob(w, &m.st) }
func (m *minMaxString) Restore(r io.Reader) error  { return restoreGob(r, &m.st) }

type minMaxDec struct {
	typ   arrow.DataType
	isMax bool
	val   []decimal128.Num
	has   []bool
}

func (m *minMaxDec) fold(g uint32, v decimal128.Num) {
	switch {
	case !m.has[g]:
		m.val[g], m.has[g] = v, true
	case m.isMax && v.Greater(m.val[g]), !m.isMax && v.Less(m.val[g]):
		m.val[g] = v
	}
}

func (m *minMaxDec) Update(groups []uint32, args []arrow.Array) error {
	if mg := maxGroup(groups); mg >= 0 {
		m.val = sizeTo(m.val, mg+1)
		m.has = sizeTo(m.has, mg+1)
	}
	vals := decs(args[0])
	vb := validBytes(args[0])
	for i, g := range groups {
		if isValid(vb, i) {
			m.fold(g, vals[i])
		}
	}
	return nil
}

func (m *minMaxDec) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*minMaxDec)
	if !ok {
		return mergeTypeError(m, other)
	}
	for g, has := range o.has {
		if has {
			t := mapping[g]
			m.val = grow(m.val, t)
			m.has = grow(m.has, t)
			m.fold(t, o.val[g])
		}
	}
	return nil
}

func (m *minMaxDec) Result(n int) (arrow.Array, error) {
	out := make([]decimal128.Num, n)
	copy(out, m.val)
	bits, _ := validityFromBools(m.has, n)
	return fixedArray(m.typ, out, bufferOf(bits)), nil
}

type minMaxDecState struct {
	Val []dec2
	Has []bool
}

func (m *minMaxDec) Snapshot(w io.Writer) error {
	return snapshotGob(w, minMaxDecState{toDec2(m.val), m.has})
}

func (m *minMaxDec) Restore(r io.Reader) error {
	var st minMaxDecState
	if err := restoreGob(r, &st); err != nil {
		return err
	}
	m.val, m.has = fromDec2(st.Val), st.Has
	return nil
}

// bool_and/every (any=false) and bool_or/any/some (any=true).
func makeBoolAnd(args []Arg, distinct bool) (*AggBound, error) {
	return makeBoolAgg("bool_and", args, false)
}
func makeBoolOr(args []Arg, distinct bool) (*AggBound, error) {
	return makeBoolAgg("bool_or", args, true)
}

func makeBoolAgg(name string, args []Arg, anyOf bool) (*AggBound, error) {
	if err := asBool(args[0].Type, name); err != nil {
		return nil, err
	}
	return &AggBound{Type: types.Boolean, Casts: []arrow.DataType{types.Boolean}, New: func() Accumulator { return &boolAcc{any: anyOf} }}, nil
}

type boolAcc struct {
	any bool
	st  minMaxState[bool]
}

func (m *boolAcc) fold(g uint32, v bool) {
	if !m.st.Has[g] {
		m.st.Val[g], m.st.Has[g] = v, true
	} else if m.any {
		m.st.Val[g] = m.st.Val[g] || v
	} else {
		m.st.Val[g] = m.st.Val[g] && v
	}
}

func (m *boolAcc) Update(groups []uint32, args []arrow.Array) error {
	if mg := maxGroup(groups); mg >= 0 {
		m.st.Val = sizeTo(m.st.Val, mg+1)
		m.st.Has = sizeTo(m.st.Has, mg+1)
	}
	if args[0].DataType().ID() == arrow.NULL {
		return nil
	}
	vals, vb := boolBits(args[0])
	for i, g := range groups {
		if isValid(vb, i) {
			m.fold(g, bitutil.BitIsSet(vals, i))
		}
	}
	return nil
}

func (m *boolAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*boolAcc)
	if !ok {
		return mergeTypeError(m, other)
	}
	for g, has := range o.st.Has {
		if has {
			t := mapping[g]
			m.st.Val = grow(m.st.Val, t)
			m.st.Has = grow(m.st.Has, t)
			m.fold(t, o.st.Val[g])
		}
	}
	return nil
}

func (m *boolAcc) Result(n int) (arrow.Array, error) {
	bits := newBits(n)
	for g := 0; g < n && g < len(m.st.Val); g++ {
		setBit(bits, g, m.st.Val[g])
	}
	valid, _ := validityFromBools(m.st.Has, n)
	return boolArray(bits, n, bufferOf(valid)), nil
}

func (m *boolAcc) Snapshot(w io.Writer) error { return snapshotGob(w, &m.st) }
func (m *boolAcc) Restore(r io.Reader) error  { return restoreGob(r, &m.st) }
