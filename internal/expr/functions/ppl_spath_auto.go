package functions

import (
	"encoding/json"
	"strings"

	"sluice/internal/types"
)

// ppl_spath_auto(json) is PPL spath's auto-extract mode: the whole JSON
// flattened into a map of strings. Object keys join with dots (user.name),
// array elements add {} (tags{}, users{}.name), a JSON null is the string
// "null", numbers and booleans their text; a key met more than once (two
// elements, or "user.name" beside {"user": {"name": ...}}) holds
// "[a, b]". Malformed JSON gives what was read before the error.
var bindPPLSpathAuto = rowFn("ppl_spath_auto", types.Map(types.String), ps(pString), func(v []any) (any, error) {
	return spathAutoRow(v[0].(string))
})

func spathAutoRow(s string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	vals := map[string][]string{}
	var order []string
	add := func(k, s string) {
		if _, ok := vals[k]; !ok {
			order = append(order, k)
		}
		vals[k] = append(vals[k], s)
	}
	_ = spathFlatten(dec, "", add) // partial results on malformed JSON
	m := make(map[string]any, len(order))
	for _, k := range order {
		if vs := vals[k]; len(vs) == 1 {
			m[k] = vs[0]
		} else {
			m[k] = "[" + strings.Join(vs, ", ") + "]"
		}
	}
	return m, nil
}

// spathFlatten reads one JSON value from dec, calling add for each
// scalar under its flattened key.
func spathFlatten(dec *json.Decoder, key string, add func(k, v string)) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		obj := t == '{'
		for dec.More() {
			k := key + "{}"
			if obj {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				name, _ := kt.(string)
				if k = name; key != "" {
					k = key + "." + name
				}
			}
			if err := spathFlatten(dec, k, add); err != nil {
				return err
			}
		}
		_, err := dec.Token() // the closing } or ]
		return err
	case nil:
		add(key, "null")
	case string:
		add(key, t)
	case bool:
		if t {
			add(key, "true")
		} else {
			add(key, "false")
		}
	case json.Number:
		add(key, t.String())
	}
	return nil
}
