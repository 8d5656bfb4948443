// Package types maps Sluice's SQL types onto Arrow data types.
//
// Sluice has no type system of its own: a SQL type *is* an arrow.DataType,
// chosen from the small set below, so values flow from decoders to sinks
// without conversion. This package names those types, prints their SQL
// spelling, and decides implicit widening.
//
//	t := types.Struct(arrow.Field{Name: "city", Type: types.String})
//	fmt.Println(types.SQLName(types.Array(t))) // ARRAY<STRUCT<city: STRING>>
package types

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// The SQL scalar types. TIMESTAMP is microseconds since the Unix epoch, UTC.
// INTERVAL is month/day/nanosecond so that calendar units (months) and
// fixed units (minutes) both round-trip.
var (
	Null      arrow.DataType = arrow.Null
	Boolean   arrow.DataType = arrow.FixedWidthTypes.Boolean
	Int       arrow.DataType = arrow.PrimitiveTypes.Int32
	BigInt    arrow.DataType = arrow.PrimitiveTypes.Int64
	Double    arrow.DataType = arrow.PrimitiveTypes.Float64
	String    arrow.DataType = arrow.BinaryTypes.String
	Date      arrow.DataType = arrow.FixedWidthTypes.Date32
	Timestamp arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	Interval  arrow.DataType = arrow.FixedWidthTypes.MonthDayNanoInterval
)

// Decimal returns DECIMAL(p, s), stored as a 128-bit decimal.
func Decimal(precision, scale int32) arrow.DataType {
	return &arrow.Decimal128Type{Precision: precision, Scale: scale}
}

// Array returns ARRAY<elem>.
func Array(elem arrow.DataType) arrow.DataType { return arrow.ListOf(elem) }

// Map returns MAP<STRING, value>; Sluice map keys are always strings.
func Map(value arrow.DataType) arrow.DataType { return arrow.MapOf(String, value) }

// Struct returns STRUCT<...> with nullable fields.
func Struct(fields ...arrow.Field) arrow.DataType {
	for i := range fields {
		fields[i].Nullable = true
	}
	return arrow.StructOf(fields...)
}

// SQLName prints t the way DESCRIBE shows it and Parse reads it back.
func SQLName(t arrow.DataType) string {
	switch tt := t.(type) {
	case *arrow.NullType:
		return "NULL"
	case *arrow.BooleanType:
		return "BOOLEAN"
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Uint8Type, *arrow.Uint16Type:
		return "INT"
	case *arrow.Int64Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return "BIGINT"
	case *arrow.Float16Type, *arrow.Float32Type, *arrow.Float64Type:
		return "DOUBLE"
	case *arrow.Decimal128Type:
		return fmt.Sprintf("DECIMAL(%d,%d)", tt.Precision, tt.Scale)
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return "STRING"
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return "BINARY"
	case *arrow.Date32Type, *arrow.Date64Type:
		return "DATE"
	case *arrow.TimestampType:
		return "TIMESTAMP"
	case *arrow.MonthDayNanoIntervalType, *arrow.DurationType:
		return "INTERVAL"
	case *arrow.ListType:
		return "ARRAY<" + SQLName(tt.Elem()) + ">"
	case *arrow.LargeListType:
		return "ARRAY<" + SQLName(tt.Elem()) + ">"
	case *arrow.MapType:
		return "MAP<" + SQLName(tt.KeyType()) + ", " + SQLName(tt.ItemType()) + ">"
	case *arrow.StructType:
		var b strings.Builder
		b.WriteString("STRUCT<")
		for i, f := range tt.Fields() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(f.Name))
			b.WriteString(": ")
			b.WriteString(SQLName(f.Type))
		}
		b.WriteString(">")
		return b.String()
	}
	return strings.ToUpper(t.String())
}

// QuoteIdent back-quotes a name when it is not a plain identifier.
func QuoteIdent(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// IsNumeric reports INT, BIGINT, DOUBLE and DECIMAL (and the narrower
// Arrow integer and float types that Parquet files may carry).
func IsNumeric(t arrow.DataType) bool {
	return IsInteger(t) || IsFloating(t) || t.ID() == arrow.DECIMAL128
}

// IsInteger reports any Arrow integer type.
func IsInteger(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return true
	}
	return false
}

// IsFloating reports any Arrow floating point type.
func IsFloating(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return true
	}
	return false
}

// IsString reports STRING in any of Arrow's encodings.
func IsString(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	}
	return false
}

// IsTemporal reports DATE and TIMESTAMP.
func IsTemporal(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP:
		return true
	}
	return false
}

// Normalize maps the Arrow types a Parquet or IPC file may carry onto the
// SQL set above (int16 to INT, float32 to DOUBLE, timestamp[ns] to
// TIMESTAMP, ...), recursing into nested types.
func Normalize(t arrow.DataType) arrow.DataType {
	switch tt := t.(type) {
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Uint8Type, *arrow.Uint16Type:
		return Int
	case *arrow.Uint32Type, *arrow.Uint64Type:
		return BigInt
	case *arrow.Float16Type, *arrow.Float32Type:
		return Double
	case *arrow.LargeStringType, *arrow.StringViewType:
		return String
	case *arrow.Date64Type:
		return Date
	case *arrow.TimestampType:
		return Timestamp
	case *arrow.DurationType:
		return Interval
	case *arrow.LargeListType:
		return Array(Normalize(tt.Elem()))
	case *arrow.ListType:
		return Array(Normalize(tt.Elem()))
	case *arrow.MapType:
		return Map(Normalize(tt.ItemType()))
	case *arrow.StructType:
		fs := make([]arrow.Field, tt.NumFields())
		for i, f := range tt.Fields() {
			fs[i] = arrow.Field{Name: f.Name, Type: Normalize(f.Type), Nullable: true}
		}
		return arrow.StructOf(fs...)
	}
	return t
}
