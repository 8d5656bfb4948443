package opensearch

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

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
	// exactPhrase: text fields use the sluice_standard analyzer, so
	// match_phrase can be pushed as is; otherwise as a looser match.
	exactPhrase bool
}

type dsl = map[string]any

// translate returns the query for e, whether it is exact, and false when
// e cannot be pushed at all.
func (t *translator) translate(e expr.Expr) (q dsl, exact, ok bool) {
	switch n := e.(type) {
	case *expr.InExpr:
		if n.Not {
			return nil, false, false
		}
		f, ft, ok := t.field(n.Arg)
		if !ok || !t.termable(f, ft) {
			return nil, false, false
		}
		vals := make([]any, 0, len(n.List))
		for _, x := range n.List {
			v, ok := literal(x, ft)
			if !ok {
				return nil, false, false
			}
			vals = append(vals, v)
		}
		if ft.ID() == arrow.TIMESTAMP {
			return nil, false, false
		}
		return dsl{"terms": dsl{f: vals}}, true, true
	case *expr.CallExpr:
		return t.call(n)
	}
	return nil, false, false
}

func (t *translator) call(c *expr.CallExpr) (dsl, bool, bool) {
	switch c.Name {
	case "and":
		l, le, lok := t.translate(c.Args[0])
		r, re, rok := t.translate(c.Args[1])
		switch {
		case lok && rok:
			return dsl{"bool": dsl{"filter": []any{l, r}}}, le && re, true
		case lok:
			return l, false, true
		case rok:
			return r, false, true
		}
		return nil, false, false
	case "or":
		l, le, lok := t.translate(c.Args[0])
		r, re, rok := t.translate(c.Args[1])
		if !lok || !rok {
			return nil, false, false
		}
		return dsl{"bool": dsl{"should": []any{l, r}, "minimum_should_match": 1}}, le && re, true
	case "not":
		q, exact, ok := t.translate(c.Args[0])
		if !ok || !exact {
			return nil, false, false
		}
		// NULLs pass must_not but fail SQL's NOT: a superset, not exact.
		return dsl{"bool": dsl{"must_not": []any{q}}}, false, true
	case "is_null", "is_not_null":
		f, ft, ok := t.field(c.Args[0])
		if !ok || !scalar(ft) || t.text[f] {
			return nil, false, false
		}
		q := dsl{"exists": dsl{"field": f}}
		if c.Name == "is_null" {
			return dsl{"bool": dsl{"must_not": []any{q}}}, true, true
		}
		return q, true, true
	case "match", "match_phrase":
		f, _, ok := t.field(c.Args[0])
		if !ok || !t.text[f] {
			return nil, false, false
		}
		l, isLit := c.Args[1].(*expr.Literal)
		s, isStr := l.Value.(string)
		if !isLit || !isStr {
			return nil, false, false
		}
		if c.Name == "match_phrase" && t.exactPhrase {
			return dsl{"match_phrase": dsl{f: dsl{"query": s}}}, false, true
		}
		return dsl{"match": dsl{f: dsl{"query": s}}}, false, true
	case "=", "<>", "<", "<=", ">", ">=":
		return t.compare(c)
	}
	return nil, false, false
}

var flipped = map[string]string{"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

func (t *translator) compare(c *expr.CallExpr) (dsl, bool, bool) {
	op, a, b := c.Name, c.Args[0], c.Args[1]
	if _, isLit := a.(*expr.Literal); isLit {
		op, a, b = flipped[op], b, a
	}
	f, ft, ok := t.field(a)
	if !ok || !t.termable(f, ft) {
		return nil, false, false
	}
	v, ok := literal(b, ft)
	if !ok {
		return nil, false, false
	}
	if ft.ID() == arrow.TIMESTAMP {
		return t.timeRange(f, op, v.(int64))
	}
	if ft.ID() == arrow.BOOL && op != "=" && op != "<>" {
		return nil, false, false
	}
	switch op {
	case "=":
		return dsl{"term": dsl{f: v}}, true, true
	case "<>":
		return dsl{"bool": dsl{"must_not": []any{dsl{"term": dsl{f: v}}}}}, false, true
	}
	key := map[string]string{"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}[op]
	return dsl{"range": dsl{f: dsl{key: v}}}, true, true
}

// timeRange widens a TIMESTAMP comparison to whole milliseconds, the
// precision OpenSearch keeps for date fields, so no row is lost.
func (t *translator) timeRange(f, op string, us int64) (dsl, bool, bool) {
	lo := floorDiv(us, 1000)
	hi := lo
	if us%1000 != 0 {
		hi = lo + 1
	}
	r := dsl{"format": "epoch_millis"}
	switch op {
	case "=":
		r["gte"], r["lte"] = lo, hi
	case "<", "<=":
		r["lte"] = hi
	case ">", ">=":
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

// field resolves a column or struct field path to its name in the index.
func (t *translator) field(e expr.Expr) (string, arrow.DataType, bool) {
	switch n := e.(type) {
	case *expr.Column:
		if n.Index < 0 || n.Index >= t.schema.NumFields() {
			return "", nil, false
		}
		f := t.schema.Field(n.Index)
		return f.Name, f.Type, true
	case *expr.FieldExpr:
		p, _, ok := t.field(n.Arg)
		if !ok {
			return "", nil, false
		}
		return p + "." + n.Name, n.Type(), true
	case *expr.CastExpr:
		// Integer columns widened for a comparison keep their values.
		p, ft, ok := t.field(n.Arg)
		if ok && integer(ft) && (integer(n.To) || n.To.ID() == arrow.FLOAT64) {
			return p, ft, true
		}
	}
	return "", nil, false
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
func literal(e expr.Expr, ft arrow.DataType) (any, bool) {
	l, ok := e.(*expr.Literal)
	if !ok || l.Value == nil {
		return nil, false
	}
	switch v := l.Value.(type) {
	case bool:
		return v, ft.ID() == arrow.BOOL
	case string:
		return v, ft.ID() == arrow.STRING || ft.ID() == arrow.LARGE_STRING
	case int32:
		if l.Type().ID() == arrow.DATE32 {
			return types.FormatDate(v), ft.ID() == arrow.DATE32
		}
		return int64(v), integer(ft) || ft.ID() == arrow.FLOAT64
	case int64:
		if l.Type().ID() == arrow.TIMESTAMP {
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
