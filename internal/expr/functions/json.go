package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// JSON functions: text in, row by row. Malformed JSON gives NULL, as in
// Spark.

func decodeJSON(s string) (any, bool) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	if d.More() {
		return nil, false
	}
	return v, true
}

// jsonText is how get_json_object and json_tuple show a value: strings
// unquoted, everything else as JSON.
func jsonText(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return x
	case json.Number:
		return x.String()
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// get_json_object(json, path): path is $ followed by .key, ['key'], [n]
// or [*] steps; NULL when the path does not match.
var bindGetJSONObject = rowFn("get_json_object", types.String, ps(pString), func(v []any) (any, error) {
	doc, ok := decodeJSON(v[0].(string))
	if !ok {
		return nil, nil
	}
	path := v[1].(string)
	if !strings.HasPrefix(path, "$") {
		return nil, nil
	}
	cur := []any{doc}
	rest := path[1:]
	wild := false
	for rest != "" {
		var next []any
		switch {
		case strings.HasPrefix(rest, "."):
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			key := rest[1 : 1+end]
			rest = rest[1+end:]
			for _, c := range cur {
				if m, ok := c.(map[string]any); ok {
					if x, ok := m[key]; ok {
						next = append(next, x)
					}
				}
			}
		case strings.HasPrefix(rest, "["):
			end := strings.Index(rest, "]")
			if end < 0 {
				return nil, nil
			}
			sel := rest[1:end]
			rest = rest[end+1:]
			for _, c := range cur {
				switch {
				case sel == "*":
					wild = true
					if a, ok := c.([]any); ok {
						next = append(next, a...)
					}
				case strings.HasPrefix(sel, "'"):
					if m, ok := c.(map[string]any); ok {
						if x, ok := m[strings.Trim(sel, "'")]; ok {
							next = append(next, x)
						}
					}
				default:
					k, err := strconv.Atoi(sel)
					if a, ok := c.([]any); ok && err == nil && k >= 0 && k < len(a) {
						next = append(next, a[k])
					}
				}
			}
		default:
			return nil, nil
		}
		cur = next
	}
	switch {
	case len(cur) == 0:
		return nil, nil
	case wild && len(cur) > 1:
		return jsonText(cur), nil
	}
	return jsonText(cur[0]), nil
})

var bindJSONArrayLength = rowFn("json_array_length", types.Int, ps(pString), func(v []any) (any, error) {
	doc, ok := decodeJSON(v[0].(string))
	a, isArr := doc.([]any)
	if !ok || !isArr {
		return nil, nil
	}
	return int64(len(a)), nil
})

// json_object_keys: the top-level keys in document order.
var bindJSONObjectKeys = rowFn("json_object_keys", types.Array(types.String), ps(pString), func(v []any) (any, error) {
	s := v[0].(string)
	if _, ok := decodeJSON(s); !ok {
		return nil, nil
	}
	d := json.NewDecoder(strings.NewReader(s))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	keys := []any{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, nil
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil, nil
		}
	}
	return keys, nil
})

// schema_of_json: the type Spark infers, fields sorted by name.
var bindSchemaOfJSON = rowFn("schema_of_json", types.String, ps(pString), func(v []any) (any, error) {
	doc, ok := decodeJSON(v[0].(string))
	if !ok {
		return nil, fmt.Errorf("malformed JSON %q", v[0])
	}
	return jsonSchema(doc), nil
})

func jsonSchema(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + jsonSchema(x[k])
		}
		return "STRUCT<" + strings.Join(parts, ", ") + ">"
	case []any:
		elem := "STRING"
		for _, e := range x {
			if e != nil {
				elem = jsonSchema(e)
				break
			}
		}
		return "ARRAY<" + elem + ">"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "BIGINT"
		}
		return "DOUBLE"
	case bool:
		return "BOOLEAN"
	}
	return "STRING"
}

// from_json(json, schema): schema is a SQL type or a field list like
// 'a INT, b DOUBLE'; values that do not fit their field are NULL.
func bindFromJSON(args []Arg) (*Bound, error) {
	schema, ok := constString(args[1])
	if !ok {
		return nil, fmt.Errorf("function from_json expects a constant schema")
	}
	t, err := sql.ParseType(schema)
	if err != nil {
		if t, err = sql.ParseType("STRUCT<" + schema + ">"); err != nil {
			return nil, fmt.Errorf("function from_json: invalid schema %q: %w", schema, err)
		}
	}
	return rowFn("from_json", t, ps(pString, pString), func(v []any) (any, error) {
		doc, ok := decodeJSON(v[0].(string))
		if !ok {
			return nil, nil
		}
		return jsonAs(doc, t), nil
	})(args)
}

// jsonAs converts decoded JSON to the Go value AppendValue takes for t.
func jsonAs(v any, t arrow.DataType) any {
	if v == nil {
		return nil
	}
	switch tt := t.(type) {
	case *arrow.StructType:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := map[string]any{}
		for _, f := range tt.Fields() {
			out[f.Name] = jsonAs(m[f.Name], f.Type)
		}
		return out
	case *arrow.ListType:
		a, ok := v.([]any)
		if !ok {
			return nil
		}
		out := make([]any, len(a))
		for i, e := range a {
			out[i] = jsonAs(e, tt.Elem())
		}
		return out
	case *arrow.MapType:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := map[string]any{}
		for k, e := range m {
			out[k] = jsonAs(e, tt.ItemType())
		}
		return out
	}
	switch {
	case types.IsInteger(t):
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				return i
			}
		}
		return nil
	case types.IsNumeric(t):
		if n, ok := v.(json.Number); ok {
			if t.ID() == arrow.DECIMAL128 {
				return n.String()
			}
			if f, err := n.Float64(); err == nil {
				return f
			}
		}
		return nil
	case t.ID() == arrow.BOOL:
		b, _ := v.(bool)
		if _, ok := v.(bool); !ok {
			return nil
		}
		return b
	case types.IsString(t):
		if s, ok := v.(string); ok {
			return s
		}
		return jsonText(v)
	}
	if s, ok := v.(string); ok {
		return s // DATE, TIMESTAMP: parsed by AppendValue
	}
	return nil
}

// to_json(struct, map or array): the value as JSON text.
func bindToJSON(args []Arg) (*Bound, error) {
	switch types.Normalize(args[0].Type).(type) {
	case *arrow.StructType, *arrow.MapType, *arrow.ListType:
	default:
		return nil, fmt.Errorf("function to_json expects a STRUCT, MAP or ARRAY, got %s", sqlName(args[0].Type))
	}
	return &Bound{Type: types.String, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		return strResult(n, args, false, func(i int) (string, bool) {
			var b strings.Builder
			writeJSON(&b, types.ValueAt(args[0], i))
			return b.String(), true
		}), nil
	}}, nil
}

// writeJSON writes a ValueAt value as JSON, struct fields in order.
func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case types.StructValue:
		b.WriteByte('{')
		first := true
		for i, name := range x.Names {
			if x.Values[i] == nil {
				continue // Spark drops NULL fields
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeJSON(b, name)
			b.WriteByte(':')
			writeJSON(b, x.Values[i])
		}
		b.WriteByte('}')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, k)
			b.WriteByte(':')
			writeJSON(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case float64:
		b.WriteString(types.FormatDouble(x))
	case int64, bool:
		fmt.Fprint(b, x)
	default:
		out, err := json.Marshal(fmt.Sprint(x))
		if err != nil {
			b.WriteString("null")
			return
		}
		b.Write(out)
	}
}
