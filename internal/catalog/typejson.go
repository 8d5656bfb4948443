package catalog

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// jsonType is the catalog file's spelling of a SQL type. It is structural
// JSON rather than SQL text so the catalog never depends on the parser.
type jsonType struct {
	Kind      string       `json:"kind"`
	Precision int32        `json:"precision,omitempty"`
	Scale     int32        `json:"scale,omitempty"`
	Elem      *jsonType    `json:"elem,omitempty"`
	Fields    []jsonColumn `json:"fields,omitempty"`
}

type jsonColumn struct {
	Name     string    `json:"name"`
	Type     *jsonType `json:"type"`
	Nullable bool      `json:"nullable"`
	// Meta is the field's metadata: what a connector learnt about the
	// column when it inferred the schema (an OpenSearch text field).
	Meta map[string]string `json:"meta,omitempty"`
}

func encodeType(t arrow.DataType) (*jsonType, error) {
	t = types.Normalize(t)
	switch tt := t.(type) {
	case *arrow.NullType:
		return &jsonType{Kind: "null"}, nil
	case *arrow.BooleanType:
		return &jsonType{Kind: "boolean"}, nil
	case *arrow.Int32Type:
		return &jsonType{Kind: "int"}, nil
	case *arrow.Int64Type:
		return &jsonType{Kind: "bigint"}, nil
	case *arrow.Float64Type:
		return &jsonType{Kind: "double"}, nil
	case *arrow.Decimal128Type:
		return &jsonType{Kind: "decimal", Precision: tt.Precision, Scale: tt.Scale}, nil
	case *arrow.StringType:
		return &jsonType{Kind: "string"}, nil
	case *arrow.BinaryType:
		return &jsonType{Kind: "binary"}, nil
	case *arrow.Date32Type:
		return &jsonType{Kind: "date"}, nil
	case *arrow.TimestampType:
		return &jsonType{Kind: "timestamp"}, nil
	case *arrow.MonthDayNanoIntervalType:
		return &jsonType{Kind: "interval"}, nil
	case *arrow.ListType:
		e, err := encodeType(tt.Elem())
		if err != nil {
			return nil, err
		}
		return &jsonType{Kind: "array", Elem: e}, nil
	case *arrow.MapType:
		e, err := encodeType(tt.ItemType())
		if err != nil {
			return nil, err
		}
		return &jsonType{Kind: "map", Elem: e}, nil
	case *arrow.StructType:
		cols, err := encodeFields(tt.Fields())
		if err != nil {
			return nil, err
		}
		return &jsonType{Kind: "struct", Fields: cols}, nil
	}
	return nil, fmt.Errorf("type %s cannot be stored in the catalog", t)
}

func encodeFields(fs []arrow.Field) ([]jsonColumn, error) {
	cols := make([]jsonColumn, len(fs))
	for i, f := range fs {
		jt, err := encodeType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		cols[i] = jsonColumn{Name: f.Name, Type: jt, Nullable: f.Nullable}
		if f.HasMetadata() {
			cols[i].Meta = f.Metadata.ToMap()
		}
	}
	return cols, nil
}

func decodeType(j *jsonType) (arrow.DataType, error) {
	if j == nil {
		return nil, fmt.Errorf("missing type")
	}
	switch j.Kind {
	case "null":
		return types.Null, nil
	case "boolean":
		return types.Boolean, nil
	case "int":
		return types.Int, nil
	case "bigint":
		return types.BigInt, nil
	case "double":
		return types.Double, nil
	case "decimal":
		return types.Decimal(j.Precision, j.Scale), nil
	case "string":
		return types.String, nil
	case "binary":
		return arrow.BinaryTypes.Binary, nil
	case "date":
		return types.Date, nil
	case "timestamp":
		return types.Timestamp, nil
	case "interval":
		return types.Interval, nil
	case "array":
		e, err := decodeType(j.Elem)
		if err != nil {
			return nil, err
		}
		return types.Array(e), nil
	case "map":
		e, err := decodeType(j.Elem)
		if err != nil {
			return nil, err
		}
		return types.Map(e), nil
	case "struct":
		fs, err := decodeFields(j.Fields)
		if err != nil {
			return nil, err
		}
		return types.Struct(fs...), nil
	}
	return nil, fmt.Errorf("unknown stored type %q", j.Kind)
}

func decodeFields(cols []jsonColumn) ([]arrow.Field, error) {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		t, err := decodeType(c.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		fs[i] = arrow.Field{Name: c.Name, Type: t, Nullable: true}
		if len(c.Meta) > 0 {
			fs[i].Metadata = arrow.MetadataFrom(c.Meta)
		}
	}
	return fs, nil
}

// schemaJSON is an arrow.Schema as stored in the catalog file.
type schemaJSON []jsonColumn

func encodeSchema(s *arrow.Schema) (schemaJSON, error) {
	if s == nil {
		return nil, nil
	}
	return encodeFields(s.Fields())
}

func decodeSchema(s schemaJSON) (*arrow.Schema, error) {
	if s == nil {
		return nil, nil
	}
	fs, err := decodeFields(s)
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(fs, nil), nil
}
