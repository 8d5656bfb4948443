package functions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sluice/internal/types"
)

// ppl_spath(json, 'path') is PPL spath's path mode: the value at a path
// (a.b, list{0}, list{} for every element, ['a.b c'] for a name with
// dots or blanks) as text: a string as itself, numbers, booleans,
// objects and arrays as compact JSON; NULL when missing, null, or the
// text is no JSON. A {} step gives a JSON array of what follows it.
func bindPPLSpath(args []Arg) (*Bound, error) {
	path, ok := args[1].Value.(string)
	if !args[1].Const || !ok {
		return nil, fmt.Errorf("ppl_spath: the path must be a constant string")
	}
	steps, err := parseSpath(path)
	if err != nil {
		return nil, err
	}
	return rowFn("ppl_spath", types.String, ps(pString, pString), func(v []any) (any, error) {
		raw := json.RawMessage(strings.TrimSpace(v[0].(string)))
		if !json.Valid(raw) {
			return nil, nil
		}
		out, ok := spathWalk(raw, steps)
		if !ok {
			return nil, nil
		}
		return spathText(out), nil
	})(args)
}

// spathText is a value as spath gives it: a string unquoted, anything
// else compact JSON with its keys in their written order; nil for null.
func spathText(raw json.RawMessage) any {
	if string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return nil
	}
	return b.String()
}

// spathStep is one step of a path: a key, an index, or every element.
type spathStep struct {
	key   string
	index int // -1: a key; -2: every element ({})
}

func parseSpath(p string) ([]spathStep, error) {
	var out []spathStep
	bad := func(why string) ([]spathStep, error) {
		return nil, fmt.Errorf("spath path %q: %s", p, why)
	}
	for i := 0; i < len(p); {
		switch c := p[i]; {
		case c == '.':
			if i == 0 || i == len(p)-1 {
				return bad("a '.' needs a name on each side")
			}
			i++
		case c == '{':
			j := strings.IndexByte(p[i:], '}')
			if j < 0 {
				return bad("unclosed {")
			}
			in := p[i+1 : i+j]
			if in == "" {
				out = append(out, spathStep{index: -2})
			} else {
				n, err := strconv.Atoi(in)
				if err != nil || n < 0 {
					return bad("{" + in + "} is no index")
				}
				out = append(out, spathStep{index: n})
			}
			i += j + 1
		case c == '[' && i+1 < len(p) && (p[i+1] == '\'' || p[i+1] == '"'):
			q := p[i+1]
			j := strings.IndexByte(p[i+2:], q)
			if j < 0 || i+2+j+1 >= len(p) || p[i+2+j+1] != ']' {
				return bad("unclosed ['...']")
			}
			out = append(out, spathStep{key: p[i+2 : i+2+j], index: -1})
			i += 2 + j + 2
		default:
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '{' && p[j] != '[' {
				j++
			}
			if j == i {
				return bad(fmt.Sprintf("unexpected %q", c))
			}
			out = append(out, spathStep{key: p[i:j], index: -1})
			i = j
		}
	}
	if len(out) == 0 {
		return bad("empty")
	}
	return out, nil
}

// spathWalk follows steps through raw JSON, keeping each value's text
// (so objects keep their key order); a {} step gives the JSON array of
// what the rest of the path finds in each element.
func spathWalk(v json.RawMessage, steps []spathStep) (json.RawMessage, bool) {
	for k, s := range steps {
		switch {
		case s.index == -1:
			var m map[string]json.RawMessage
			if json.Unmarshal(v, &m) != nil || m == nil {
				return nil, false
			}
			var ok bool
			if v, ok = m[s.key]; !ok {
				return nil, false
			}
		case s.index == -2:
			var a []json.RawMessage
			if json.Unmarshal(v, &a) != nil || a == nil {
				return nil, false
			}
			var b bytes.Buffer
			b.WriteByte('[')
			n := 0
			for _, e := range a {
				r, ok := spathWalk(e, steps[k+1:])
				if !ok {
					continue
				}
				if n > 0 {
					b.WriteByte(',')
				}
				if json.Compact(&b, r) != nil {
					return nil, false
				}
				n++
			}
			b.WriteByte(']')
			return b.Bytes(), true
		default:
			var a []json.RawMessage
			if json.Unmarshal(v, &a) != nil || s.index >= len(a) {
				return nil, false
			}
			v = a[s.index]
		}
	}
	return v, true
}
