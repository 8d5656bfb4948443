package sparkstmt

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/sql"
)

// ShowTableExtended is Spark's SHOW TABLE EXTENDED [IN db] LIKE
// 'pattern': per matching table and view (namespace, tableName,
// isTemporary, information), the information being DESCRIBE EXTENDED's
// detail rows as "Key: value" lines and then the schema as Spark's
// printSchema tree.
func (e *Runner) ShowTableExtended(ctx context.Context, s *sql.ShowTableExtended) (*Result, error) {
	db, ts, err := e.tablesLike(ctx, s.In, s.Like)
	if err != nil {
		return nil, fmt.Errorf("SHOW TABLE EXTENDED: %w", err)
	}
	var rows [][]string
	for _, t := range ts {
		_, name := catalog.SplitStored(t.Spec.Name)
		rows = append(rows, []string{db, name, "false", information(e.tableDetail(t), t.Spec.Schema.Fields())})
	}
	views, err := e.viewRows(ctx, db, s.Like)
	if err != nil {
		return nil, fmt.Errorf("SHOW TABLE EXTENDED: %w", err)
	}
	var temps [][]string
	for _, r := range views {
		name := r.name
		if !r.temporary {
			name = r.db + "." + r.name
		}
		v, err := e.h.LookupView(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("SHOW TABLE EXTENDED: %w", err)
		}
		fields, err := e.viewFields(ctx, v)
		if err != nil {
			return nil, fmt.Errorf("SHOW TABLE EXTENDED: view %s: %w", r.name, err)
		}
		row := []string{r.db, r.name, fmt.Sprint(r.temporary), information(viewDetail(v), fields)}
		if r.temporary {
			temps = append(temps, row)
		} else {
			rows = append(rows, row)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return strings.ToLower(rows[i][1]) < strings.ToLower(rows[j][1]) })
	return stringRows([]string{"namespace", "tableName", "isTemporary", "information"}, append(rows, temps...)), nil
}

// information is SHOW TABLE EXTENDED's text: a temporary view's has no
// catalog or database lines, as in Spark.
func information(detail [][2]string, fields []arrow.Field) string {
	temporary := false
	for _, d := range detail {
		temporary = temporary || d[0] == "Database" && d[1] == ""
	}
	var b strings.Builder
	for _, d := range detail {
		if temporary && (d[0] == "Catalog" || d[0] == "Database") {
			continue
		}
		b.WriteString(d[0] + ": " + d[1] + "\n")
	}
	b.WriteString("Schema: root\n")
	for _, f := range fields {
		treeField(&b, " |", f.Name, f.Type, fmt.Sprintf("(nullable = %t)", f.Nullable))
	}
	b.WriteString("\n")
	return b.String()
}

// treeField writes one line of Spark's StructType.treeString, and the
// lines of what the type nests.
func treeField(b *strings.Builder, prefix, name string, t arrow.DataType, suffix string) {
	fmt.Fprintf(b, "%s-- %s: %s", prefix, name, sparkTypeName(t))
	if suffix != "" {
		b.WriteString(" " + suffix)
	}
	b.WriteString("\n")
	inner := prefix + "    |"
	switch tt := t.(type) {
	case *arrow.ListType:
		treeField(b, inner, "element", tt.Elem(), fmt.Sprintf("(containsNull = %t)", tt.ElemField().Nullable))
	case *arrow.MapType:
		treeField(b, inner, "key", tt.KeyType(), "")
		treeField(b, inner, "value", tt.ItemType(), fmt.Sprintf("(valueContainsNull = %t)", tt.ItemField().Nullable))
	case *arrow.StructType:
		for _, f := range tt.Fields() {
			treeField(b, inner, f.Name, f.Type, fmt.Sprintf("(nullable = %t)", f.Nullable))
		}
	}
}

// sparkTypeName is Spark's DataType.typeName.
func sparkTypeName(t arrow.DataType) string {
	switch tt := t.(type) {
	case *arrow.Int8Type:
		return "byte"
	case *arrow.Int16Type:
		return "short"
	case *arrow.Int32Type:
		return "integer"
	case *arrow.Int64Type:
		return "long"
	case *arrow.Float32Type:
		return "float"
	case *arrow.Float64Type:
		return "double"
	case *arrow.StringType, *arrow.LargeStringType:
		return "string"
	case *arrow.BooleanType:
		return "boolean"
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return "binary"
	case *arrow.Date32Type:
		return "date"
	case *arrow.TimestampType:
		if tt.TimeZone == "" {
			return "timestamp_ntz"
		}
		return "timestamp"
	case *arrow.Decimal128Type:
		return fmt.Sprintf("decimal(%d,%d)", tt.Precision, tt.Scale)
	case *arrow.ListType:
		return "array"
	case *arrow.MapType:
		return "map"
	case *arrow.StructType:
		return "struct"
	case *arrow.NullType:
		return "void"
	}
	return strings.ToLower(t.String())
}
