package functions

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// ScalarValue returns element i of arr in the form expr.Lit accepts:
// nil, bool, int32 (INT), int64 (BIGINT), float64, string, decimal128.Num,
// int32 days (DATE), int64 micros (TIMESTAMP), arrow.MonthDayNanoInterval;
// nested values as types.ValueAt gives them.
func ScalarValue(arr arrow.Array, i int) any {
	if IsNullAt(arr, i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		return strings.Clone(a.Value(i))
	case *array.Decimal128:
		return a.Value(i)
	case *array.Date32:
		return int32(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.MonthDayNanoInterval:
		return a.Value(i)
	}
	return types.ValueAt(arr, i)
}

// FromValue builds a one-element array of type t from a Go value: the
// forms ScalarValue returns, plus int, float32, time.Time (TIMESTAMP or
// DATE), strings for DATE/TIMESTAMP/INTERVAL/DECIMAL, []any (ARRAY),
// map[string]any (MAP or STRUCT) and types.StructValue (STRUCT).
func FromValue(v any, t arrow.DataType) (arrow.Array, error) {
	b := array.NewBuilder(mem, t)
	defer b.Release()
	if err := AppendValue(b, v); err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

// AppendValue appends one Go value to an Arrow builder (see FromValue).
func AppendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := func() error {
		return fmt.Errorf("cannot use %T value %v as %s", v, v, sqlName(b.Type()))
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		x, ok := v.(bool)
		if !ok {
			return bad()
		}
		bb.Append(x)
	case *array.Int32Builder:
		x, ok := toInt64(v)
		if !ok || x < math.MinInt32 || x > math.MaxInt32 {
			return bad()
		}
		bb.Append(int32(x))
	case *array.Int64Builder:
		x, ok := toInt64(v)
		if !ok {
			return bad()
		}
		bb.Append(x)
	case *array.Float64Builder:
		switch x := v.(type) {
		case float64:
			bb.Append(x)
		case float32:
			bb.Append(float64(x))
		default:
			i, ok := toInt64(v)
			if !ok {
				return bad()
			}
			bb.Append(float64(i))
		}
	case *array.StringBuilder:
		x, ok := v.(string)
		if !ok {
			return bad()
		}
		bb.Append(x)
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case []byte:
			bb.Append(x)
		case string:
			bb.AppendString(x)
		default:
			return bad()
		}
	case *array.Decimal128Builder:
		dt := bb.Type().(*arrow.Decimal128Type)
		switch x := v.(type) {
		case decimal128.Num:
			bb.Append(x)
		case string:
			n, err := decimal128.FromString(x, dt.Precision, dt.Scale)
			if err != nil {
				return bad()
			}
			bb.Append(n)
		case float64:
			n, err := decimal128.FromFloat64(x, dt.Precision, dt.Scale)
			if err != nil {
				return bad()
			}
			bb.Append(n)
		default:
			i, ok := toInt64(v)
			if !ok {
				return bad()
			}
			n, err := decimal128.FromI64(i).Rescale(0, dt.Scale)
			if err != nil {
				return bad()
			}
			bb.Append(n)
		}
	case *array.Date32Builder:
		switch x := v.(type) {
		case int32:
			bb.Append(arrow.Date32(x))
		case string:
			d, ok := types.ParseDate(x)
			if !ok {
				return bad()
			}
			bb.Append(arrow.Date32(d))
		case time.Time:
			bb.Append(arrow.Date32(floorDiv(x.Unix(), 86400)))
		default:
			return bad()
		}
	case *array.TimestampBuilder:
		switch x := v.(type) {
		case int64:
			bb.Append(arrow.Timestamp(x))
		case time.Time:
			bb.Append(arrow.Timestamp(x.UnixMicro()))
		case string:
			us, ok := types.ParseTimestamp(x)
			if !ok {
				return bad()
			}
			bb.Append(arrow.Timestamp(us))
		default:
			return bad()
		}
	case *array.MonthDayNanoIntervalBuilder:
		switch x := v.(type) {
		case arrow.MonthDayNanoInterval:
			bb.Append(x)
		case string:
			iv, err := types.ParseInterval(x)
			if err != nil {
				return err
			}
			bb.Append(iv)
		case time.Duration:
			bb.Append(arrow.MonthDayNanoInterval{Nanoseconds: int64(x)})
		default:
			return bad()
		}
	case *array.MapBuilder:
		m, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		bb.Append(true)
		for _, k := range sortedKeys(m) {
			bb.KeyBuilder().(*array.StringBuilder).Append(k)
			if err := AppendValue(bb.ItemBuilder(), m[k]); err != nil {
				return err
			}
		}
	case *array.ListBuilder:
		xs, ok := v.([]any)
		if !ok {
			return bad()
		}
		bb.Append(true)
		for _, x := range xs {
			if err := AppendValue(bb.ValueBuilder(), x); err != nil {
				return err
			}
		}
	case *array.StructBuilder:
		st := bb.Type().(*arrow.StructType)
		get := func(name string) (any, bool) { return nil, false }
		switch x := v.(type) {
		case types.StructValue:
			get = x.Get
		case map[string]any:
			get = func(name string) (any, bool) { y, ok := x[name]; return y, ok }
		default:
			return bad()
		}
		bb.Append(true)
		for f := 0; f < st.NumFields(); f++ {
			fv, _ := get(st.Field(f).Name)
			if err := AppendValue(bb.FieldBuilder(f), fv); err != nil {
				return err
			}
		}
	case *array.NullBuilder:
		return bad()
	default:
		return bad()
	}
	return nil
}

func toInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	}
	return 0, false
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// IsNullAt reports element i of a as NULL, also for arrays of Arrow's
// NULL type (whose IsNull is false for lack of a bitmap).
func IsNullAt(a arrow.Array, i int) bool {
	return a.DataType().ID() == arrow.NULL || a.IsNull(i)
}
