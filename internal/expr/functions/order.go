package functions

import (
	"bytes"
	"cmp"
	"fmt"
	"sluice/internal/types"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ValueCmp compares element i of a with element j of b, both non-NULL
// and of the type it was built for: negative when a's sorts first.
type ValueCmp func(a arrow.Array, i int, b arrow.Array, j int) int

// Order returns Spark's ordering of values of type t, the one ORDER BY,
// min/max, comparisons and greatest/least share. Arrays compare element
// by element, a shorter prefix first ([9] < [9, 1] < [10]); structs
// field by field; a NULL element or field sorts before any value.
// Doubles put NaN above every number and -0.0 equal to 0.0. Maps have no
// order, as in Spark: that is an error.
func Order(t arrow.DataType) (ValueCmp, error) {
	switch tt := t.(type) {
	case *arrow.ListType:
		elem, err := Order(tt.Elem())
		if err != nil {
			return nil, err
		}
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			la, lb := a.(*array.List), b.(*array.List)
			sa, ea := la.ValueOffsets(i)
			sb, eb := lb.ValueOffsets(j)
			va, vb := la.ListValues(), lb.ListValues()
			for x, y := int(sa), int(sb); x < int(ea) && y < int(eb); x, y = x+1, y+1 {
				if r := withNulls(elem, va, x, vb, y); r != 0 {
					return r
				}
			}
			return cmp.Compare(ea-sa, eb-sb)
		}, nil
	case *arrow.StructType:
		fields := make([]ValueCmp, tt.NumFields())
		for k, f := range tt.Fields() {
			c, err := Order(f.Type)
			if err != nil {
				return nil, err
			}
			fields[k] = c
		}
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			sa, sb := a.(*array.Struct), b.(*array.Struct)
			for k, c := range fields {
				if r := withNulls(c, sa.Field(k), i, sb.Field(k), j); r != 0 {
					return r
				}
			}
			return 0
		}, nil
	case *arrow.MapType:
		return nil, fmt.Errorf("%s has no order (Spark does not order or compare maps)", sqlName(t))
	}
	switch t.ID() {
	case arrow.NULL:
		return func(arrow.Array, int, arrow.Array, int) int { return 0 }, nil
	case arrow.BOOL:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return cmp.Compare(b2u(a.(*array.Boolean).Value(i)), b2u(b.(*array.Boolean).Value(j)))
		}, nil
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return cmp.Compare(intAt(a, i), intAt(b, j))
		}, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return FloatOrder(floatAt(a, i), floatAt(b, j))
		}, nil
	case arrow.STRING:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return strings.Compare(a.(*array.String).Value(i), b.(*array.String).Value(j))
		}, nil
	case arrow.BINARY:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return bytes.Compare(a.(*array.Binary).Value(i), b.(*array.Binary).Value(j))
		}, nil
	case arrow.DECIMAL128:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return a.(*array.Decimal128).Value(i).Cmp(b.(*array.Decimal128).Value(j))
		}, nil
	case arrow.INTERVAL_MONTH_DAY_NANO:
		// Months, then days, then nanoseconds: deterministic, and right
		// whenever the intervals use the same units.
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			x, y := a.(*array.MonthDayNanoInterval).Value(i), b.(*array.MonthDayNanoInterval).Value(j)
			if r := cmp.Compare(x.Months, y.Months); r != 0 {
				return r
			}
			if r := cmp.Compare(x.Days, y.Days); r != 0 {
				return r
			}
			return cmp.Compare(x.Nanoseconds, y.Nanoseconds)
		}, nil
	}
	return nil, fmt.Errorf("%s has no order", sqlName(t))
}

// withNulls applies c to possibly NULL elements: NULL first.
func withNulls(c ValueCmp, a arrow.Array, i int, b arrow.Array, j int) int {
	na, nb := a.IsNull(i), b.IsNull(j)
	switch {
	case na && nb:
		return 0
	case na:
		return -1
	case nb:
		return 1
	}
	return c(a, i, b, j)
}

func intAt(a arrow.Array, i int) int64 {
	switch v := a.(type) {
	case *array.Int64:
		return v.Value(i)
	case *array.Int32:
		return int64(v.Value(i))
	case *array.Int16:
		return int64(v.Value(i))
	case *array.Int8:
		return int64(v.Value(i))
	case *array.Date32:
		return int64(v.Value(i))
	case *array.Timestamp:
		return int64(v.Value(i))
	}
	panic(fmt.Sprintf("functions: no integer in %s", a.DataType()))
}

func floatAt(a arrow.Array, i int) float64 {
	if v, ok := a.(*array.Float32); ok {
		return float64(v.Value(i))
	}
	return a.(*array.Float64).Value(i)
}

// FloatOrder is types.FloatOrder, Spark's order of floating-point values.
func FloatOrder(a, b float64) int { return types.FloatOrder(a, b) }

// isNested reports whether t is an ARRAY, STRUCT or MAP.
func isNested(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.STRUCT, arrow.MAP:
		return true
	}
	return false
}
