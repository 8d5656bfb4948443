package types

import "github.com/apache/arrow-go/v18/arrow"

// IsNull reports whether element i of arr is NULL. Use it instead of
// arr.IsNull(i) wherever a value is printed or encoded: an untyped NULL
// (SELECT NULL) is an array of Arrow's Null type, which has no validity
// bitmap, so its IsNull is false for every row and its ValueStr is the
// text "(null)".
func IsNull(arr arrow.Array, i int) bool {
	return arr.DataType().ID() == arrow.NULL || arr.IsNull(i)
}
