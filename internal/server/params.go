package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// sqlParameter is one of the request's parameters: {"type": "integer",
// "value": 30}, bound to the query's ?s in order, as the plugin's
// prepared statements are.
type sqlParameter struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// literal is the parameter as SQL text, by the plugin's type names
// (byte, short, integer, long; float, double; boolean; string, keyword,
// date; null).
func (p sqlParameter) literal(n int) (string, error) {
	bad := func(want string) error {
		return fmt.Errorf("parameter %d (%s): value %s is not %s", n, p.Type, p.Value, want)
	}
	v := bytes.TrimSpace(p.Value)
	switch strings.ToLower(p.Type) {
	case "byte", "short", "integer", "long":
		s := strings.Trim(string(v), `"`)
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return "", bad("an integer")
		}
		return s, nil
	case "float", "double":
		s := strings.Trim(string(v), `"`)
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "", bad("a number")
		}
		// An E-notation literal is a DOUBLE in Spark; a plain one a
		// DECIMAL, which compares and computes the same.
		return s, nil
	case "boolean":
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return "", bad("true or false")
		}
		return strings.ToUpper(strconv.FormatBool(b)), nil
	case "string", "keyword", "date":
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", bad("a string")
		}
		return dslString(s), nil
	case "null":
		return "NULL", nil
	case "":
		return "", fmt.Errorf("parameter %d has no type", n)
	}
	return "", fmt.Errorf("parameter %d: unsupported parameter type %s (byte, short, integer, long, float, double, boolean, string, keyword, date, null)", n, p.Type)
}

// bindRequest binds a request's parameters into its query text: the
// SQL endpoint's ?s, and a refusal on the PPL one (PPL has no ?).
func bindRequest(ep endpoint, text string, params []sqlParameter) (string, error) {
	if len(params) == 0 {
		return text, nil
	}
	if ep.ppl {
		return "", badRequest("parameters bind the ? placeholders of a SQL query; PPL has none")
	}
	out, err := bindParameters(text, params)
	if err != nil {
		return "", badRequest(err.Error())
	}
	return out, nil
}

// bindParameters replaces each ? of text outside strings, back-quoted
// names and comments with the next parameter's literal. Every ? needs a
// parameter and every parameter a ?.
func bindParameters(text string, params []sqlParameter) (string, error) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(text) && text[j] != c {
				if text[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			j = min(j, len(text)-1)
			b.WriteString(text[i : j+1])
			i = j
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i - 1
			}
			b.WriteString(text[i : i+j+1])
			i += j
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			j := strings.Index(text[i+2:], "*/")
			end := len(text)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(text[i:end])
			i = end - 1
		case c == '?':
			if next >= len(params) {
				return "", fmt.Errorf("the query has more ? placeholders than the %d parameters", len(params))
			}
			lit, err := params[next].literal(next + 1)
			if err != nil {
				return "", err
			}
			b.WriteString(lit)
			next++
		default:
			b.WriteByte(c)
		}
	}
	if next < len(params) {
		return "", fmt.Errorf("the query has %d ? placeholders for %d parameters", next, len(params))
	}
	return b.String(), nil
}
