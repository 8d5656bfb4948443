package flint

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// fieldFold is the index of the field of s named name, matched as SQL
// matches names (case-insensitively), -1 when there is none.
func fieldFold(s *arrow.Schema, name string) int {
	for i, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// sparkTypeName is Spark's typeName for a SQL type name (INT is
// integer, BIGINT long), as Flint prints column types.
func sparkTypeName(sqlName string) string {
	switch strings.ToUpper(sqlName) {
	case "INT":
		return "integer"
	case "BIGINT":
		return "long"
	case "SMALLINT":
		return "short"
	case "TINYINT":
		return "byte"
	}
	return strings.ToLower(sqlName)
}
