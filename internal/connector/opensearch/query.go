package opensearch

import (
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/pushdown"
	"sluice/internal/expr"
	"sluice/internal/types"
)

// translator turns predicates over a table's schema into query DSL.
//
// Every translation matches a superset of the rows the predicate keeps
// (the engine re-applies the predicate), and says when it is exact: only
// an exact query may be negated, since NOT of a superset is a subset.
type translator struct {
	schema *arrow.Schema
	text   map[string]bool // columns mapped as text (match() goes there)
	// keyword: text columns with a keyword multi-field, for equality.
	keyword map[string]keywordField
	// exactPhrase: text fields use the sluice_standard analyzer, so
	// match_phrase can be pushed as is; otherwise as a looser match.
	exactPhrase bool
}

type dsl = map[string]any

// translate returns the query for e, whether it is exact, and false when
// e cannot be pushed at all.
func (t *translator) translate(e expr.Expr) (q dsl, exact, ok bool) {
	return t.pred(pushdown.Normalize(e, t.schema, pushdown.IntegerCasts))
}

func (t *translator) pred(p pushdown.Pred) (dsl, bool, bool) {
	switch n := p.(type) {
	case pushdown.And:
		l, le, lok := t.pred(n.Left)
		r, re, rok := t.pred(n.Right)
		switch {
		case lok && rok:
			return dsl{"bool": dsl{"filter": []any{l, r}}}, le && re, true
		case lok:
			return l, false, true
		case rok:
			return r, false, true
		}
	case pushdown.Or:
		l, le, lok := t.pred(n.Left)
		r, re, rok := t.pred(n.Right)
		if lok && rok {
			return dsl{"bool": dsl{"should": []any{l, r}, "minimum_should_match": 1}}, le && re, true
		}
	case pushdown.Not:
		q, exact, ok := t.pred(n.Arg)
		if ok && exact {
			// NULLs pass must_not but fail SQL's NOT: a superset, not exact.
			return dsl{"bool": dsl{"must_not": []any{q}}}, false, true
		}
	case pushdown.IsNull:
		f := n.Ref.Name()
		if !scalar(n.Ref.Type) || t.text[f] {
			return nil, false, false
		}
		q := dsl{"exists": dsl{"field": f}}
		if n.Not {
			return q, true, true
		}
		return dsl{"bool": dsl{"must_not": []any{q}}}, true, true
	case pushdown.Match:
		f := n.Ref.Name()
		if !t.text[f] {
			return nil, false, false
		}
		if n.Phrase && t.exactPhrase {
			return dsl{"match_phrase": dsl{f: dsl{"query": n.Text}}}, false, true
		}
		return dsl{"match": dsl{f: dsl{"query": n.Text}}}, false, true
	case pushdown.In:
		return t.in(n)
	case pushdown.Compare:
		return t.compare(n)
	}
	return nil, false, false
}

func (t *translator) in(n pushdown.In) (dsl, bool, bool) {
	f, ft := n.Ref.Name(), n.Ref.Type
	if _, ok := t.keyword[f]; ok && !n.Not {
		var sub string
		vals := make([]any, 0, len(n.Values))
		for _, x := range n.Values {
			s, v, ok := t.keywordTerm(f, x)
			if !ok {
				return nil, false, false
			}
			sub = s
			vals = append(vals, v)
		}
		if len(vals) > 0 {
			return dsl{"terms": dsl{sub: vals}}, true, true
		}
	}
	if n.Not || !t.termable(f, ft) || ft.ID() == arrow.TIMESTAMP {
		return nil, false, false
	}
	vals := make([]any, 0, len(n.Values))
	for _, x := range n.Values {
		v, ok := literal(x, ft)
		if !ok {
			return nil, false, false
		}
		vals = append(vals, v)
	}
	return dsl{"terms": dsl{f: vals}}, true, true
}

var rangeKeys = map[pushdown.Op]string{pushdown.Lt: "lt", pushdown.Le: "lte", pushdown.Gt: "gt", pushdown.Ge: "gte"}

func (t *translator) compare(c pushdown.Compare) (dsl, bool, bool) {
	f, ft := c.Ref.Name(), c.Ref.Type
	if c.Op == pushdown.Eq {
		if sub, v, ok := t.keywordTerm(f, c.Value); ok {
			return dsl{"term": dsl{sub: v}}, true, true
		}
	}
	if !t.termable(f, ft) || ((f == idColumn || f == indexColumn) && c.Op != pushdown.Eq) {
		// _id and _index take term queries only: no range, no must_not of them.
		return nil, false, false
	}
	v, ok := literal(c.Value, ft)
	if !ok {
		return nil, false, false
	}
	if ft.ID() == arrow.TIMESTAMP {
		return t.timeRange(f, c.Op, v.(int64))
	}
	if ft.ID() == arrow.BOOL && c.Op != pushdown.Eq && c.Op != pushdown.Ne {
		return nil, false, false
	}
	switch c.Op {
	case pushdown.Eq:
		return dsl{"term": dsl{f: v}}, true, true
	case pushdown.Ne:
		return dsl{"bool": dsl{"must_not": []any{dsl{"term": dsl{f: v}}}}}, false, true
	}
	return dsl{"range": dsl{f: dsl{rangeKeys[c.Op]: v}}}, true, true
}

// timeRange widens a TIMESTAMP comparison to whole milliseconds, the
// precision OpenSearch keeps for date fields, so no row is lost.
func (t *translator) timeRange(f string, op pushdown.Op, us int64) (dsl, bool, bool) {
	lo := floorDiv(us, 1000)
	hi := lo
	if us%1000 != 0 {
		hi = lo + 1
	}
	r := dsl{"format": "epoch_millis"}
	switch op {
	case pushdown.Eq:
		r["gte"], r["lte"] = lo, hi
	case pushdown.Lt, pushdown.Le:
		r["lte"] = hi
	case pushdown.Gt, pushdown.Ge:
		r["gte"] = lo
	default:
		return nil, false, false
	}
	return dsl{"range": dsl{f: r}}, false, true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// keywordTerm: equality on a text field goes to its keyword multi-field,
// which holds the whole value, when the literal is short enough to be in
// it (a longer stored value is left out of the sub-field, but it cannot
// equal a shorter literal, so the term query stays exact).
func (t *translator) keywordTerm(f string, lit pushdown.Value) (string, any, bool) {
	kw, ok := t.keyword[f]
	if !ok {
		return "", nil, false
	}
	v, ok := literal(lit, types.String)
	if !ok {
		return "", nil, false
	}
	s, ok := v.(string)
	if !ok || (kw.ignoreAbove > 0 && utf8.RuneCountInString(s) > kw.ignoreAbove) {
		return "", nil, false
	}
	return f + "." + kw.name, s, true
}

// termable: term and range queries on the field mean what SQL means.
func (t *translator) termable(f string, ft arrow.DataType) bool {
	if t.text[f] {
		return false
	}
	switch ft.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BOOL, arrow.DATE32, arrow.TIMESTAMP:
		return true
	}
	return integer(ft) || ft.ID() == arrow.FLOAT64
}

func integer(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32:
		return true
	}
	return false
}

func scalar(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.FIXED_SIZE_LIST:
		return false
	}
	return true
}

// literal converts a constant to the JSON value compared with a field of
// type ft (TIMESTAMPs as micros, for timeRange).
func literal(c pushdown.Value, ft arrow.DataType) (any, bool) {
	switch v := c.V.(type) {
	case bool:
		return v, ft.ID() == arrow.BOOL
	case string:
		return v, ft.ID() == arrow.STRING || ft.ID() == arrow.LARGE_STRING
	case int32:
		if c.Type.ID() == arrow.DATE32 {
			return types.FormatDate(v), ft.ID() == arrow.DATE32
		}
		return int64(v), integer(ft) || ft.ID() == arrow.FLOAT64
	case int64:
		if c.Type.ID() == arrow.TIMESTAMP {
			return v, ft.ID() == arrow.TIMESTAMP
		}
		return v, integer(ft) || ft.ID() == arrow.FLOAT64
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		return v, ft.ID() == arrow.FLOAT64
	}
	return nil, false
}
