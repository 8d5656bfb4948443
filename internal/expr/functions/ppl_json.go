package functions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// PPL's JSON functions over JSON text (json.md of the OpenSearch PPL
// reference). Spark has no functions of these names; paths are spath's
// (a.b, a{0}, a{} for every element).

// ppl_json_valid: whether the text is JSON.
var bindPPLJSONValid = rowFn("ppl_json_valid", types.Boolean, ps(pString), func(v []any) (any, error) {
	return json.Valid([]byte(strings.TrimSpace(v[0].(string)))), nil
})

// ppl_json: the text as written when it is JSON, else NULL.
var bindPPLJSON = rowFn("ppl_json", types.String, ps(pString), func(v []any) (any, error) {
	if !json.Valid([]byte(strings.TrimSpace(v[0].(string)))) {
		return nil, nil
	}
	return v[0], nil
})

// ppl_json_keys: an object's keys in written order as a JSON array; NULL
// for anything but an object.
var bindPPLJSONKeys = rowFn("ppl_json_keys", types.String, ps(pString), func(v []any) (any, error) {
	n, ok := parseJNode(v[0].(string))
	if !ok || n.kind != '{' {
		return nil, nil
	}
	var b strings.Builder
	writeJSON(&b, anySlice(n.keys))
	return b.String(), nil
})

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// pJSONValue takes any value; a DECIMAL becomes DOUBLE so it is written
// as a JSON number (123.45, not "123.45").
var pJSONValue = param{"any", func(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.DECIMAL128 || t.ID() == arrow.DECIMAL256 {
		return types.Double
	}
	return t
}}

// ppl_json_object(k, v, ...): a JSON object of the pairs in order (NULL
// values written as null).
func bindPPLJSONObject(args []Arg) (*Bound, error) {
	if len(args)%2 != 0 {
		return nil, fmt.Errorf("ppl_json_object: takes key, value pairs, got %d arguments", len(args))
	}
	return rowFnNulls("ppl_json_object", types.String, ps(pString, pJSONValue), func(v []any) (any, error) {
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < len(v); i += 2 {
			if v[i] == nil {
				return nil, fmt.Errorf("a key is NULL")
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(&b, v[i])
			b.WriteByte(':')
			writeJSON(&b, v[i+1])
		}
		b.WriteByte('}')
		return b.String(), nil
	})(args)
}

// ppl_json_array(v, ...): a JSON array of the values.
var bindPPLJSONArray = rowFnNulls("ppl_json_array", types.String, ps(pJSONValue), func(v []any) (any, error) {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String(), nil
})

// ppl_json_extract(json, path, ...): with one path the value there as
// spath gives it (a string unquoted); with more, the JSON array of the
// values, null where a path finds none. NULL for text that is no JSON.
func bindPPLJSONExtract(args []Arg) (*Bound, error) {
	paths, err := constPaths("ppl_json_extract", args[1:], 1)
	if err != nil {
		return nil, err
	}
	return rowFn("ppl_json_extract", types.String, ps(pString), func(v []any) (any, error) {
		raw := json.RawMessage(strings.TrimSpace(v[0].(string)))
		if !json.Valid(raw) {
			return nil, nil
		}
		if len(paths) == 1 {
			out, ok := spathWalk(raw, paths[0])
			if !ok {
				return nil, nil
			}
			return spathText(out), nil
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, p := range paths {
			if i > 0 {
				b.WriteByte(',')
			}
			out, ok := spathWalk(raw, p)
			if !ok || json.Compact(&b, out) != nil {
				b.WriteString("null")
			}
		}
		b.WriteByte(']')
		return b.String(), nil
	})(args)
}

// constPaths parses every step-th argument as a constant spath path.
func constPaths(fn string, args []Arg, step int) ([][]spathStep, error) {
	var out [][]spathStep
	for i := 0; i < len(args); i += step {
		p, ok := args[i].Value.(string)
		if !args[i].Const || !ok {
			return nil, fmt.Errorf("%s: a path must be a constant string", fn)
		}
		steps, err := parseSpath(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fn, err)
		}
		out = append(out, steps)
	}
	return out, nil
}
