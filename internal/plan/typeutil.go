package plan

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

func commonType(a, b arrow.DataType) (arrow.DataType, bool) {
	if arrow.TypeEqual(a, b) {
		return a, true
	}
	if types.IsString(a) && types.IsString(b) {
		return types.String, true
	}
	return types.Common(a, b)
}

func typeName(t arrow.DataType) string { return types.SQLName(t) }

func itoa(i int) string { return strconv.Itoa(i) }
