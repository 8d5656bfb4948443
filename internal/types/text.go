package types

import (
	"encoding/hex"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Text renders row i of arr as a result cell's text: the CLI's table and
// CSV formats, the server's CSV, raw and JDBC-temporal cells, EXPLAIN
// lines and .slt files all print it, so a value reads the same everywhere:
// scalars as FormatValue spells them (Spark's style: 2.0, 1.0E10,
// 2026-11-30 12:00:00, DECIMAL with its scale), BINARY as \x hex, nested
// values as JSON. ok is false for NULL.
func Text(arr arrow.Array, i int) (s string, ok bool) {
	if IsNull(arr, i) {
		return "", false
	}
	switch a := arr.(type) {
	case *array.String:
		return a.Value(i), true
	case *array.LargeString:
		return a.Value(i), true
	case *array.StringView:
		return a.Value(i), true
	case *array.Binary:
		return `\x` + hex.EncodeToString(a.Value(i)), true
	case *array.LargeBinary:
		return `\x` + hex.EncodeToString(a.Value(i)), true
	case *array.Decimal128:
		// Arrow's ValueStr drops trailing zeros; DECIMAL(10,2) shows 12.50.
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale), true
	case *array.Dictionary:
		return Text(a.Dictionary(), a.GetValueIndex(i))
	case *array.List, *array.LargeList, *array.FixedSizeList, *array.Map, *array.Struct:
		return string(AppendJSON(nil, arr, i)), true
	}
	return FormatValue(arr, i), true
}
