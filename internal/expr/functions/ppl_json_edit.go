package functions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"sluice/internal/types"
)

// jnode is parsed JSON that keeps an object's keys in written order, so
// the edits below give back the text with only the edit changed.
type jnode struct {
	kind  byte // '{', '[' or 0 for a scalar (raw)
	keys  []string
	vals  []*jnode // an object's values, an array's elements
	raw   json.RawMessage
	float bool // write a whole number as a double (1.0)
}

func parseJNode(s string) (*jnode, bool) {
	raw := json.RawMessage(strings.TrimSpace(s))
	if !json.Valid(raw) {
		return nil, false
	}
	return toJNode(raw), true
}

func toJNode(raw json.RawMessage) *jnode {
	switch raw[0] {
	case '{':
		n := &jnode{kind: '{'}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.Token() // {
		for dec.More() {
			k, _ := dec.Token()
			var v json.RawMessage
			_ = dec.Decode(&v)
			n.keys = append(n.keys, k.(string))
			n.vals = append(n.vals, toJNode(v))
		}
		return n
	case '[':
		var a []json.RawMessage
		_ = json.Unmarshal(raw, &a)
		n := &jnode{kind: '['}
		for _, e := range a {
			n.vals = append(n.vals, toJNode(e))
		}
		return n
	}
	return &jnode{raw: raw}
}

func (n *jnode) write(b *bytes.Buffer) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			n.vals[i].write(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	default:
		if n.float && !bytes.ContainsAny(n.raw, ".eE\"") && string(n.raw) != "null" && string(n.raw) != "true" && string(n.raw) != "false" {
			b.Write(n.raw)
			b.WriteString(".0")
			return
		}
		_ = json.Compact(b, n.raw)
	}
}

func (n *jnode) String() string {
	var b bytes.Buffer
	n.write(&b)
	return b.String()
}

// parents calls fn with every node the path up to its last step finds
// (a {} step: each element), and that last step.
func (n *jnode) parents(steps []spathStep, fn func(parent *jnode, last spathStep)) {
	if len(steps) == 1 {
		fn(n, steps[0])
		return
	}
	for _, c := range n.children(steps[0]) {
		c.parents(steps[1:], fn)
	}
}

// children is what one step finds in n.
func (n *jnode) children(s spathStep) []*jnode {
	switch {
	case s.index == -1 && n.kind == '{':
		for i, k := range n.keys {
			if k == s.key {
				return []*jnode{n.vals[i]}
			}
		}
	case s.index == -2 && n.kind == '[':
		return n.vals
	case s.index >= 0 && n.kind == '[' && s.index < len(n.vals):
		return []*jnode{n.vals[s.index]}
	}
	return nil
}

// valueNode is a function argument as a JSON value.
func valueNode(v any) *jnode {
	var b strings.Builder
	writeJSON(&b, v)
	return &jnode{raw: json.RawMessage(b.String())}
}

// jsonEdit binds ppl_json_set, ppl_json_append and ppl_json_extend:
// (json, path, value, ...), each pair applied in turn by edit.
func jsonEdit(fn string, edit func(parent *jnode, last spathStep, v any)) Binder {
	return func(args []Arg) (*Bound, error) {
		if len(args)%2 != 1 {
			return nil, fmt.Errorf("%s: takes the JSON, then path, value pairs", fn)
		}
		paths, err := constPaths(fn, args[1:], 2)
		if err != nil {
			return nil, err
		}
		return rowFnNulls(fn, types.String, ps(pString, pString, pJSONValue), func(v []any) (any, error) {
			s, ok := v[0].(string)
			if !ok {
				return nil, nil
			}
			n, ok := parseJNode(s)
			if !ok {
				return nil, nil
			}
			for i, p := range paths {
				val := v[2+2*i]
				n.parents(p, func(parent *jnode, last spathStep) { edit(parent, last, val) })
			}
			return n.String(), nil
		})(args)
	}
}

// ppl_json_set: the value at each path replaced, or added to the object
// that holds it; a path whose parent is no object is skipped.
var bindPPLJSONSet = jsonEdit("ppl_json_set", func(parent *jnode, last spathStep, v any) {
	switch {
	case last.index == -1 && parent.kind == '{':
		for i, k := range parent.keys {
			if k == last.key {
				parent.vals[i] = valueNode(v)
				return
			}
		}
		parent.keys = append(parent.keys, last.key)
		parent.vals = append(parent.vals, valueNode(v))
	case last.index >= 0 && parent.kind == '[' && last.index < len(parent.vals):
		parent.vals[last.index] = valueNode(v)
	}
})

// ppl_json_append: the value added to the array at each path; a path to
// anything but an array is skipped.
var bindPPLJSONAppend = jsonEdit("ppl_json_append", func(parent *jnode, last spathStep, v any) {
	for _, a := range parent.children(last) {
		if a.kind == '[' {
			a.vals = append(a.vals, valueNode(v))
		}
	}
})

// ppl_json_extend: as ppl_json_append, but a value that is the text of
// a JSON array adds its elements (numbers written as doubles, 1.0, as
// OpenSearch does).
var bindPPLJSONExtend = jsonEdit("ppl_json_extend", func(parent *jnode, last spathStep, v any) {
	add := []*jnode{valueNode(v)}
	if s, ok := v.(string); ok {
		if n, ok := parseJNode(s); ok && n.kind == '[' {
			add = n.vals
			for _, e := range add {
				e.float = true
			}
		}
	}
	for _, a := range parent.children(last) {
		if a.kind == '[' {
			a.vals = append(a.vals, add...)
		}
	}
})

// ppl_json_delete(json, path, ...): the values at the paths removed; a
// path that finds nothing changes nothing.
func bindPPLJSONDelete(args []Arg) (*Bound, error) {
	paths, err := constPaths("ppl_json_delete", args[1:], 1)
	if err != nil {
		return nil, err
	}
	return rowFn("ppl_json_delete", types.String, ps(pString), func(v []any) (any, error) {
		n, ok := parseJNode(v[0].(string))
		if !ok {
			return nil, nil
		}
		for _, p := range paths {
			n.parents(p, func(parent *jnode, last spathStep) {
				switch {
				case last.index == -1 && parent.kind == '{':
					for i, k := range parent.keys {
						if k == last.key {
							parent.keys = append(parent.keys[:i:i], parent.keys[i+1:]...)
							parent.vals = append(parent.vals[:i:i], parent.vals[i+1:]...)
							return
						}
					}
				case last.index >= 0 && parent.kind == '[' && last.index < len(parent.vals):
					parent.vals = append(parent.vals[:last.index:last.index], parent.vals[last.index+1:]...)
				case last.index == -2 && parent.kind == '[':
					parent.vals = nil
				}
			})
		}
		return n.String(), nil
	})(args)
}
