package skipindex

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// valueAt returns row i of arr normalized as connector.FileSkipStats
// holds values; ok is false for a NULL or a type the index cannot order
// (which then makes the file's entry for the column unknown).
func valueAt(arr arrow.Array, i int) (v any, ok, supported bool) {
	if arr.IsNull(i) {
		return nil, false, true
	}
	switch a := arr.(type) {
	case *array.Int8:
		return int64(a.Value(i)), true, true
	case *array.Int16:
		return int64(a.Value(i)), true, true
	case *array.Int32:
		return int64(a.Value(i)), true, true
	case *array.Int64:
		return a.Value(i), true, true
	case *array.Uint8:
		return int64(a.Value(i)), true, true
	case *array.Uint16:
		return int64(a.Value(i)), true, true
	case *array.Uint32:
		return int64(a.Value(i)), true, true
	case *array.Float32:
		return float(float64(a.Value(i)))
	case *array.Float64:
		return float(a.Value(i))
	case *array.String:
		return a.Value(i), true, true
	case *array.LargeString:
		return a.Value(i), true, true
	case *array.Boolean:
		return a.Value(i), true, true
	case *array.Date32:
		return int64(a.Value(i)), true, true
	case *array.Timestamp:
		us := int64(a.Value(i))
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			us *= 1e6
		case arrow.Millisecond:
			us *= 1e3
		case arrow.Nanosecond:
			us /= 1e3
		}
		return us, true, true
	}
	return nil, false, false
}

// float normalizes a float; NaN (larger than every number in Spark's
// order, and equal to itself) is not indexed: the column's entry for the
// file becomes unknown.
func float(f float64) (any, bool, bool) {
	if math.IsNaN(f) {
		return nil, false, false
	}
	return canon(f), true, true
}

// canon holds an integral float64 as int64, so 5 and 5.0 are one value.
func canon(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) < 9e18 {
		return int64(f)
	}
	return f
}

// less orders two normalized values of one column.
func less(a, b any) bool {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return x < y
		case float64:
			return float64(x) < y
		}
	case float64:
		switch y := b.(type) {
		case int64:
			return x < float64(y)
		case float64:
			return x < y
		}
	case string:
		y, _ := b.(string)
		return x < y
	case bool:
		y, _ := b.(bool)
		return !x && y
	}
	return false
}

// encodeValue writes a normalized value as tagged text: i:5, f:1.5,
// s:text, b:true. The tag keeps int and float apart through sinks that
// store JSON numbers.
func encodeValue(v any) string {
	switch x := v.(type) {
	case int64:
		return "i:" + strconv.FormatInt(x, 10)
	case float64:
		return "f:" + strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return "s:" + x
	case bool:
		return "b:" + strconv.FormatBool(x)
	}
	return ""
}

func decodeValue(s string) (any, error) {
	tag, rest, ok := strings.Cut(s, ":")
	if !ok {
		return nil, fmt.Errorf("index value %q has no type tag", s)
	}
	switch tag {
	case "i":
		return strconv.ParseInt(rest, 10, 64)
	case "f":
		return strconv.ParseFloat(rest, 64)
	case "s":
		return rest, nil
	case "b":
		return strconv.ParseBool(rest)
	}
	return nil, fmt.Errorf("index value %q has an unknown type tag", s)
}
