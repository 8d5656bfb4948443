package file

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// hiveDefaultPartition is the folder name Hive and Spark write for a NULL
// partition value.
const hiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// partSegment is one "name=value" folder of a key, value unescaped.
type partSegment struct {
	Name  string
	Value string
	Null  bool
}

// parsePartitionPath reads the Hive partition folders of rel, a key
// relative to the table's base folder. Only folder segments count (the
// file name never does) and a segment without '=' ends nothing: Spark
// also accepts "logs/year=2026/raw/x.json".
func parsePartitionPath(rel string) []partSegment {
	var out []partSegment
	if strings.IndexByte(rel, '=') < 0 {
		return nil
	}
	for {
		slash := strings.IndexByte(rel, '/')
		if slash < 0 {
			return out // the rest is the file name
		}
		s := rel[:slash]
		rel = rel[slash+1:]
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			continue
		}
		name, val := unescapePathName(s[:eq]), unescapePathName(s[eq+1:])
		out = append(out, partSegment{Name: name, Value: val, Null: val == hiveDefaultPartition})
	}
}

// unescapePathName undoes Hive's %XX escaping of partition folder names
// (':' in timestamps is written %3A). Malformed escapes stay as written.
func unescapePathName(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// escapePathName escapes what Hive escapes in partition folder names, so
// files the sink writes read back the same in Spark and Hive.
func escapePathName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// partitionValue converts a partition folder's text to the Go value of
// column type t (the representation constArray builds from).
func partitionValue(seg partSegment, t arrow.DataType) (any, error) {
	if seg.Null {
		return nil, nil
	}
	s := seg.Value
	bad := func() (any, error) {
		return nil, fmt.Errorf("partition value %q is not a valid %s for column %s", s, types.SQLName(t), seg.Name)
	}
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		return s, nil
	case arrow.INT8, arrow.INT16, arrow.INT32:
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return bad()
		}
		return int32(v), nil
	case arrow.INT64:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return bad()
		}
		return v, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return bad()
		}
		return v, nil
	case arrow.BOOL:
		v, err := strconv.ParseBool(s)
		if err != nil {
			return bad()
		}
		return v, nil
	case arrow.DATE32:
		v, ok := types.ParseDate(s)
		if !ok {
			return bad()
		}
		return v, nil
	case arrow.TIMESTAMP:
		v, ok := types.ParseTimestamp(s)
		if !ok {
			return bad()
		}
		return v, nil
	case arrow.DECIMAL128:
		dt := t.(*arrow.Decimal128Type)
		v, err := decimal128.FromString(s, dt.Precision, dt.Scale)
		if err != nil {
			return bad()
		}
		return v, nil
	}
	return nil, fmt.Errorf("partition column %s: type %s cannot be a partition column", seg.Name, types.SQLName(t))
}

// inferPartitionType picks the narrowest SQL type that holds every value
// seen for one partition column: INT, BIGINT, DATE, else STRING. NULL
// folders say nothing; a column that is only NULL is STRING.
func inferPartitionType(values []partSegment) arrow.DataType {
	isInt, fitsInt32, isDate, any := true, true, true, false
	for _, v := range values {
		if v.Null {
			continue
		}
		any = true
		if n, err := strconv.ParseInt(v.Value, 10, 64); err != nil {
			isInt = false
		} else if n < math.MinInt32 || n > math.MaxInt32 {
			fitsInt32 = false
		}
		// Only the canonical form: "2026-1-5" is a string, not a date.
		if _, ok := types.ParseDate(v.Value); !ok || len(v.Value) != 10 {
			isDate = false
		}
	}
	switch {
	case !any:
		return types.String
	case isInt && fitsInt32:
		return types.Int
	case isInt:
		return types.BigInt
	case isDate:
		return types.Date
	}
	return types.String
}

// formatPartitionValue prints a partition value as the sink names its
// folder; nil is Hive's default partition.
func formatPartitionValue(arr arrow.Array, i int) string {
	if types.IsNull(arr, i) {
		return hiveDefaultPartition
	}
	switch a := arr.(type) {
	case *array.String:
		return escapePathName(a.Value(i))
	case *array.LargeString:
		return escapePathName(a.Value(i))
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64)
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Date32:
		return types.FormatDate(int32(a.Value(i)))
	case *array.Timestamp:
		return escapePathName(types.FormatTimestamp(int64(a.Value(i))))
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		return a.Value(i).ToString(dt.Scale)
	}
	return escapePathName(arr.ValueStr(i))
}

// constArray returns an array of n copies of v (nil: all NULL) of type t.
func constArray(mem memory.Allocator, t arrow.DataType, v any, n int) (arrow.Array, error) {
	if v == nil {
		return array.MakeArrayOfNull(mem, t, n), nil
	}
	b := array.NewBuilder(mem, t)
	defer b.Release()
	b.Reserve(n)
	switch bb := b.(type) {
	case *array.StringBuilder:
		s := v.(string)
		for range n {
			bb.Append(s)
		}
	case *array.Int32Builder:
		x := v.(int32)
		for range n {
			bb.Append(x)
		}
	case *array.Int64Builder:
		x := v.(int64)
		for range n {
			bb.Append(x)
		}
	case *array.Float64Builder:
		x := v.(float64)
		for range n {
			bb.Append(x)
		}
	case *array.BooleanBuilder:
		x := v.(bool)
		for range n {
			bb.Append(x)
		}
	case *array.Date32Builder:
		x := arrow.Date32(v.(int32))
		for range n {
			bb.Append(x)
		}
	case *array.TimestampBuilder:
		x := arrow.Timestamp(v.(int64))
		for range n {
			bb.Append(x)
		}
	case *array.Decimal128Builder:
		x := v.(decimal128.Num)
		for range n {
			bb.Append(x)
		}
	default:
		return nil, fmt.Errorf("partition column of type %s is not supported", types.SQLName(t))
	}
	return b.NewArray(), nil
}
