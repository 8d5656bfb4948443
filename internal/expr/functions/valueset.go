package functions

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"math"
)

// ValueSet is a constant IN list as a hash set of typed values.
type ValueSet struct {
	hasNull bool
	// hasNaN: the list holds NaN, which a map key never finds (Spark:
	// NaN IN (NaN) is TRUE).
	hasNaN bool
	i32    map[int32]struct{}
	i64    map[int64]struct{}
	f64    map[float64]struct{}
	str    map[string]struct{}
	dec    map[decimal128.Num]struct{}
	bools  [2]bool
	kind   arrow.Type
}

// NewValueSet builds a set of values (ScalarValue forms) of type t, or
// returns nil when t has no fast set (the caller falls back to =).
func NewValueSet(t arrow.DataType, vals []any) *ValueSet {
	s := &ValueSet{kind: t.ID()}
	switch s.kind {
	case arrow.INT32, arrow.DATE32:
		s.i32 = map[int32]struct{}{}
	case arrow.INT64, arrow.TIMESTAMP:
		s.i64 = map[int64]struct{}{}
	case arrow.FLOAT64:
		s.f64 = map[float64]struct{}{}
	case arrow.STRING:
		s.str = map[string]struct{}{}
	case arrow.DECIMAL128:
		s.dec = map[decimal128.Num]struct{}{}
	case arrow.BOOL:
	default:
		return nil
	}
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			s.hasNull = true
		case int32:
			s.i32[x] = struct{}{}
		case int64:
			s.i64[x] = struct{}{}
		case float64:
			if math.IsNaN(x) {
				s.hasNaN = true
			} else {
				s.f64[x] = struct{}{}
			}
		case string:
			s.str[x] = struct{}{}
		case decimal128.Num:
			s.dec[x] = struct{}{}
		case bool:
			if x {
				s.bools[1] = true
			} else {
				s.bools[0] = true
			}
		default:
			return nil
		}
	}
	return s
}

// Contains tests every row of x: TRUE on a match, else NULL if x is NULL
// or the set holds NULL, else FALSE (negated for NOT IN).
func (s *ValueSet) Contains(x arrow.Array, not bool) arrow.Array {
	n := x.Len()
	bits := newBits(n)
	valid := newValidity(n)
	vb := valid.Bytes()
	xv := validBytes(x)
	var hit func(i int) bool
	switch s.kind {
	case arrow.INT32, arrow.DATE32:
		v := i32s(x)
		hit = func(i int) bool { _, ok := s.i32[v[i]]; return ok }
	case arrow.INT64, arrow.TIMESTAMP:
		v := i64s(x)
		hit = func(i int) bool { _, ok := s.i64[v[i]]; return ok }
	case arrow.FLOAT64:
		v := f64s(x)
		hit = func(i int) bool {
			if math.IsNaN(v[i]) {
				return s.hasNaN
			}
			_, ok := s.f64[v[i]]
			return ok
		}
	case arrow.STRING:
		v := x.(*array.String)
		hit = func(i int) bool { _, ok := s.str[v.Value(i)]; return ok }
	case arrow.DECIMAL128:
		v := decs(x)
		hit = func(i int) bool { _, ok := s.dec[v[i]]; return ok }
	case arrow.BOOL:
		v := x.(*array.Boolean)
		hit = func(i int) bool {
			if v.Value(i) {
				return s.bools[1]
			}
			return s.bools[0]
		}
	}
	for i := 0; i < n; i++ {
		switch {
		case x.DataType().ID() == arrow.NULL || !isValid(xv, i):
			vb[i>>3] &^= 1 << (uint(i) & 7)
		case hit(i):
			setBit(bits, i, !not)
		case s.hasNull:
			vb[i>>3] &^= 1 << (uint(i) & 7)
		default:
			setBit(bits, i, not)
		}
	}
	return boolArray(bits, n, valid)
}
