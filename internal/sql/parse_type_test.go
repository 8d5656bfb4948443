package sql

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

func TestParseType(t *testing.T) {
	tests := []struct {
		in   string
		want arrow.DataType
	}{
		{"BOOLEAN", types.Boolean},
		{"bool", types.Boolean},
		{"INT", types.Int},
		{"integer", types.Int},
		{"TINYINT", types.Int},
		{"SMALLINT", types.Int},
		{"BIGINT", types.BigInt},
		{"LONG", types.BigInt},
		{"DOUBLE", types.Double},
		{"DOUBLE PRECISION", types.Double},
		{"FLOAT", types.Double},
		{"REAL", types.Double},
		{"DECIMAL", types.Decimal(10, 0)},
		{"NUMERIC", types.Decimal(10, 0)},
		{"DECIMAL(18)", types.Decimal(18, 0)},
		{"decimal(18, 4)", types.Decimal(18, 4)},
		{"STRING", types.String},
		{"VARCHAR(255)", types.String},
		{"VARCHAR", types.String},
		{"TEXT", types.String},
		{"CHAR(3)", types.String},
		{"DATE", types.Date},
		{"BINARY", arrow.BinaryTypes.Binary},
		{"TIMESTAMP", types.Timestamp},
		{"INTERVAL", types.Interval},
		{"ARRAY<STRING>", types.Array(types.String)},
		{"ARRAY<ARRAY<INT>>", types.Array(types.Array(types.Int))},
		{"MAP<STRING, BIGINT>", types.Map(types.BigInt)},
		{"STRUCT<a: INT, b: ARRAY<STRING>>", types.Struct(
			arrow.Field{Name: "a", Type: types.Int},
			arrow.Field{Name: "b", Type: types.Array(types.String)})},
		{"struct<a int, `b-c` string>", types.Struct(
			arrow.Field{Name: "a", Type: types.Int},
			arrow.Field{Name: "b-c", Type: types.String})},
		{"STRUCT<select: INT>", types.Struct(arrow.Field{Name: "select", Type: types.Int})},
		{"STRUCT<>", types.Struct()},
		{"STRUCT<geo: STRUCT<city: STRING>, tags: MAP<STRING, ARRAY<DOUBLE>>>", types.Struct(
			arrow.Field{Name: "geo", Type: types.Struct(arrow.Field{Name: "city", Type: types.String})},
			arrow.Field{Name: "tags", Type: types.Map(types.Array(types.Double))})},
	}
	for _, tc := range tests {
		got, err := ParseType(tc.in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", tc.in, err)
			continue
		}
		if !arrow.TypeEqual(got, tc.want) {
			t.Errorf("ParseType(%q) = %s, want %s", tc.in, got, tc.want)
		}
		// SQLName is what DESCRIBE prints and the catalog stores: it must
		// read back to the same type.
		back, err := ParseType(types.SQLName(got))
		if err != nil || !arrow.TypeEqual(back, got) {
			t.Errorf("ParseType(SQLName(%s)) = %v, %v", got, back, err)
		}
	}
}
