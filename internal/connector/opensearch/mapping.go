package opensearch

import (
	"encoding/json"

	"github.com/apache/arrow-go/v18/arrow"
)

// Mappings derives index mappings from a schema: TIMESTAMP and DATE to
// date, STRING to keyword (text with a keyword sub-field for text
// fields), numbers to their OpenSearch kinds, BOOLEAN to boolean, STRUCT
// to object, ARRAY to its element's mapping (every field may hold many
// values in OpenSearch), MAP to an object that is kept in _source but not
// indexed: its keys are data, and dynamic mapping would fix each key's
// type from its first value (a DOUBLE 3 written as 3 maps as long, then
// 2.5 is refused). Filters on map values are never pushed down.
func Mappings(schema *arrow.Schema, textFields map[string]bool) map[string]any {
	props := map[string]any{}
	for _, f := range schema.Fields() {
		if m := fieldMapping(f.Type, textFields[f.Name]); m != nil {
			props[f.Name] = m
		}
	}
	return map[string]any{"properties": props}
}

// MappingsJSON is Mappings as JSON text.
func MappingsJSON(schema *arrow.Schema, textFields map[string]bool) []byte {
	b, _ := json.Marshal(Mappings(schema, textFields))
	return b
}

func fieldMapping(t arrow.DataType, text bool) map[string]any {
	switch t.ID() {
	case arrow.BOOL:
		return map[string]any{"type": "boolean"}
	case arrow.INT8:
		return map[string]any{"type": "byte"}
	case arrow.INT16, arrow.UINT8:
		return map[string]any{"type": "short"}
	case arrow.INT32, arrow.UINT16:
		return map[string]any{"type": "integer"}
	case arrow.INT64, arrow.UINT32, arrow.UINT64:
		return map[string]any{"type": "long"}
	case arrow.FLOAT16, arrow.FLOAT32:
		return map[string]any{"type": "float"}
	case arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256:
		return map[string]any{"type": "double"}
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		if text {
			return map[string]any{"type": "text", "analyzer": AnalyzerName, "fields": map[string]any{"keyword": map[string]any{"type": "keyword", "ignore_above": 8191}}}
		}
		return map[string]any{"type": "keyword"}
	case arrow.BINARY, arrow.LARGE_BINARY:
		return map[string]any{"type": "binary"}
	case arrow.DATE32, arrow.DATE64:
		return map[string]any{"type": "date", "format": "strict_date_optional_time||epoch_millis"}
	case arrow.TIMESTAMP:
		return map[string]any{"type": "date", "format": "strict_date_optional_time||epoch_millis"}
	case arrow.STRUCT:
		st := t.(*arrow.StructType)
		props := map[string]any{}
		for _, f := range st.Fields() {
			if m := fieldMapping(f.Type, false); m != nil {
				props[f.Name] = m
			}
		}
		return map[string]any{"type": "object", "properties": props}
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST:
		return fieldMapping(t.(arrow.ListLikeType).Elem(), text)
	case arrow.MAP:
		return map[string]any{"type": "object", "enabled": false}
	}
	// Intervals and the like: leave them to dynamic mapping.
	return nil
}
