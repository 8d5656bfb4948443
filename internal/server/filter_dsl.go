package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// dslPredicate translates the request's filter, an OpenSearch query DSL
// object, into a predicate over the source table's columns, written in
// the syntax SQL and PPL share (back-quoted names, '...' strings with
// backslash escapes, AND/OR/NOT, IN, LIKE, IS NOT NULL). The plugin adds
// the filter to the index's search request, in filter context: scores do
// not matter, only which documents match. It reads match_all, term,
// terms, range, exists, prefix and bool (must, filter, must_not, should
// with minimum_should_match 0 or 1); anything else is refused, never
// ignored. "" is a filter that keeps every row.
func dslPredicate(raw json.RawMessage) (string, error) {
	q, err := decodeDSL(raw)
	if err != nil {
		return "", err
	}
	return dslQuery(q)
}

// decodeDSL reads one query object, numbers kept as written.
func decodeDSL(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var q map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&q); err != nil || q == nil {
		return nil, fmt.Errorf("filter %s: want a query DSL object such as {\"term\": {\"field\": value}}", raw)
	}
	return q, nil
}

func dslQuery(q map[string]json.RawMessage) (string, error) {
	if len(q) != 1 {
		return "", fmt.Errorf("filter: a query object has one key (the query's type), not %d", len(q))
	}
	for kind, body := range q {
		switch kind {
		case "match_all":
			return "", nil
		case "term":
			return dslTerm(body)
		case "terms":
			return dslTerms(body)
		case "range":
			return dslRange(body)
		case "exists":
			var e struct{ Field string }
			if err := json.Unmarshal(body, &e); err != nil || e.Field == "" {
				return "", fmt.Errorf("filter: exists wants {\"field\": name}")
			}
			return dslField(e.Field) + " IS NOT NULL", nil
		case "prefix":
			return dslPrefix(body)
		case "bool":
			return dslBool(body)
		default:
			return "", fmt.Errorf("filter: the %s query is not supported (match_all, term, terms, range, exists, prefix and bool are)", kind)
		}
	}
	panic("unreachable")
}

// dslOneField reads {"field": body}, the form of term, range and prefix.
func dslOneField(kind string, raw json.RawMessage) (string, json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		return "", nil, fmt.Errorf("filter: %s wants one field: {\"%s\": {\"field\": ...}}", kind, kind)
	}
	for f, b := range m {
		return f, b, nil
	}
	panic("unreachable")
}

// dslOptions reads a field's {"value": v, ...} form, refusing options
// that would change which rows match.
func dslOptions(kind string, raw json.RawMessage, allowed ...string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("filter: %s: %v", kind, err)
	}
	for k := range m {
		if k != "boost" && k != "_name" && !contains(allowed, k) {
			return nil, fmt.Errorf("filter: %s option %q is not supported", kind, k)
		}
	}
	return m, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func dslTerm(raw json.RawMessage) (string, error) {
	f, b, err := dslOneField("term", raw)
	if err != nil {
		return "", err
	}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
		m, err := dslOptions("term", b, "value", "case_insensitive")
		if err != nil {
			return "", err
		}
		if ci := string(m["case_insensitive"]); ci == "true" {
			v, err := dslValue(m["value"])
			if err != nil {
				return "", err
			}
			return "lower(" + dslField(f) + ") = lower(" + v + ")", nil
		}
		b = m["value"]
	}
	v, err := dslValue(b)
	if err != nil {
		return "", err
	}
	return dslField(f) + " = " + v, nil
}

func dslTerms(raw json.RawMessage) (string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", fmt.Errorf("filter: terms wants {\"field\": [values]}")
	}
	delete(m, "boost")
	delete(m, "_name")
	if len(m) != 1 {
		return "", fmt.Errorf("filter: terms wants one field: {\"field\": [values]}")
	}
	for f, b := range m {
		var vals []json.RawMessage
		if err := json.Unmarshal(b, &vals); err != nil {
			return "", fmt.Errorf("filter: terms on %s wants a list of values (a terms lookup is not supported)", f)
		}
		if len(vals) == 0 {
			return "FALSE", nil
		}
		out := make([]string, len(vals))
		for i, v := range vals {
			var err error
			if out[i], err = dslValue(v); err != nil {
				return "", err
			}
		}
		return dslField(f) + " IN (" + strings.Join(out, ", ") + ")", nil
	}
	panic("unreachable")
}

func dslRange(raw json.RawMessage) (string, error) {
	f, b, err := dslOneField("range", raw)
	if err != nil {
		return "", err
	}
	m, err := dslOptions("range", b, "gt", "gte", "lt", "lte")
	if err != nil {
		return "", err
	}
	var conds []string
	for _, op := range []struct{ key, sym string }{{"gt", ">"}, {"gte", ">="}, {"lt", "<"}, {"lte", "<="}} {
		b, ok := m[op.key]
		if !ok || string(b) == "null" {
			continue
		}
		v, err := dslValue(b)
		if err != nil {
			return "", err
		}
		conds = append(conds, dslField(f)+" "+op.sym+" "+v)
	}
	if len(conds) == 0 {
		return dslField(f) + " IS NOT NULL", nil
	}
	return strings.Join(conds, " AND "), nil
}

func dslPrefix(raw json.RawMessage) (string, error) {
	f, b, err := dslOneField("prefix", raw)
	if err != nil {
		return "", err
	}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
		m, err := dslOptions("prefix", b, "value")
		if err != nil {
			return "", err
		}
		b = m["value"]
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return "", fmt.Errorf("filter: prefix on %s wants a string", f)
	}
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
	return dslField(f) + " LIKE " + dslString(esc+"%"), nil
}

func dslBool(raw json.RawMessage) (string, error) {
	m, err := dslOptions("bool", raw, "must", "filter", "must_not", "should", "minimum_should_match")
	if err != nil {
		return "", err
	}
	clauses := func(key string) ([]string, error) {
		b, ok := m[key]
		if !ok {
			return nil, nil
		}
		var list []json.RawMessage
		if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
			if err := json.Unmarshal(b, &list); err != nil {
				return nil, fmt.Errorf("filter: bool %s: %v", key, err)
			}
		} else {
			list = []json.RawMessage{b}
		}
		var out []string
		for _, c := range list {
			q, err := decodeDSL(c)
			if err != nil {
				return nil, err
			}
			p, err := dslQuery(q)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	}
	var and []string
	for _, key := range []string{"must", "filter"} {
		cs, err := clauses(key)
		if err != nil {
			return "", err
		}
		and = append(and, cs...)
	}
	required := len(and) > 0
	not, err := clauses("must_not")
	if err != nil {
		return "", err
	}
	for _, c := range not {
		if c == "" {
			return "FALSE", nil // must_not match_all matches nothing
		}
		and = append(and, "NOT ("+c+")")
	}
	should, err := clauses("should")
	if err != nil {
		return "", err
	}
	// minimum_should_match defaults to 1 when the bool has no must or
	// filter clause, else to 0 (should clauses then only score).
	msm := 0
	if !required && len(should) > 0 {
		msm = 1
	}
	if b, ok := m["minimum_should_match"]; ok {
		switch strings.Trim(string(b), `"`) {
		case "0", "0%":
			msm = 0
		case "1":
			msm = 1
		case "100%":
			msm = len(should)
		default:
			return "", fmt.Errorf("filter: bool minimum_should_match %s is not supported (0, 1 or 100%%)", b)
		}
	}
	if msm > 1 {
		and = append(and, should...)
	} else if msm == 1 {
		var or []string
		for _, c := range should {
			if c == "" {
				or = nil
				break // one should clause matches everything
			}
			or = append(or, "("+c+")")
		}
		if len(or) > 0 {
			and = append(and, "("+strings.Join(or, " OR ")+")")
		}
	}
	var kept []string
	for _, c := range and {
		if c != "" {
			kept = append(kept, "("+c+")")
		}
	}
	return strings.Join(kept, " AND "), nil
}

// dslValue is a JSON scalar as a literal: numbers as written, strings
// quoted, booleans TRUE/FALSE.
func dslValue(raw json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("filter: value %s: %v", raw, err)
	}
	switch x := v.(type) {
	case json.Number:
		return x.String(), nil
	case string:
		return dslString(x), nil
	case bool:
		if x {
			return "TRUE", nil
		}
		return "FALSE", nil
	}
	return "", fmt.Errorf("filter: value %s: want a number, a string or a boolean", raw)
}

// dslString quotes s as SQL and PPL both read it.
func dslString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\t", `\t`).Replace(s) + "'"
}

// dslField is a DSL field name as a column reference: each dotted part
// back-quoted (a.b is field b of the object field a).
func dslField(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
	}
	return strings.Join(parts, ".")
}
