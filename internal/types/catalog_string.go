package types

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// CatalogString is a type as Spark's typeof() and DataType.catalogString
// write it: lower case, no spaces, field names as they are
// (struct<a:int,b:array<string>>, decimal(5,2), void for NULL). SQLName
// is the upper-case form DESCRIBE and CREATE TABLE use.
func CatalogString(t arrow.DataType) string {
	switch tt := t.(type) {
	case *arrow.NullType:
		return "void"
	case *arrow.Decimal128Type:
		return fmt.Sprintf("decimal(%d,%d)", tt.Precision, tt.Scale)
	case *arrow.ListType:
		return "array<" + CatalogString(tt.Elem()) + ">"
	case *arrow.LargeListType:
		return "array<" + CatalogString(tt.Elem()) + ">"
	case *arrow.MapType:
		return "map<" + CatalogString(tt.KeyType()) + "," + CatalogString(tt.ItemType()) + ">"
	case *arrow.StructType:
		parts := make([]string, len(tt.Fields()))
		for i, f := range tt.Fields() {
			parts[i] = f.Name + ":" + CatalogString(f.Type)
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	}
	return strings.ToLower(SQLName(t))
}
