package index

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/search/query"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// translator turns predicates into Bleve queries that match a superset of
// the rows the predicate keeps (the engine re-applies it); exact ones may
// be negated.
type translator struct {
	schema *arrow.Schema
	text   map[string]bool
}

func (t *translator) translate(e expr.Expr) (q query.Query, exact, ok bool) {
	switch n := e.(type) {
	case *expr.InExpr:
		if n.Not {
			return nil, false, false
		}
		var qs []query.Query
		for _, x := range n.List {
			c, err := expr.Call("=", n.Arg, x)
			if err != nil {
				return nil, false, false
			}
			q, _, ok := t.translate(c)
			if !ok {
				return nil, false, false
			}
			qs = append(qs, q)
		}
		return bleve.NewDisjunctionQuery(qs...), false, true
	case *expr.CallExpr:
		return t.call(n)
	}
	return nil, false, false
}

func (t *translator) call(c *expr.CallExpr) (query.Query, bool, bool) {
	switch c.Name {
	case "and":
		l, le, lok := t.translate(c.Args[0])
		r, re, rok := t.translate(c.Args[1])
		switch {
		case lok && rok:
			return bleve.NewConjunctionQuery(l, r), le && re, true
		case lok:
			return l, false, true
		case rok:
			return r, false, true
		}
	case "or":
		l, le, lok := t.translate(c.Args[0])
		r, re, rok := t.translate(c.Args[1])
		if lok && rok {
			return bleve.NewDisjunctionQuery(l, r), le && re, true
		}
	case "not":
		q, exact, ok := t.translate(c.Args[0])
		if ok && exact {
			b := bleve.NewBooleanQuery()
			b.AddMust(bleve.NewMatchAllQuery())
			b.AddMustNot(q)
			return b, false, true
		}
	case "match", "match_phrase":
		f, _, ok := t.field(c.Args[0])
		l, isLit := c.Args[1].(*expr.Literal)
		if !ok || !t.text[f] || !isLit {
			return nil, false, false
		}
		s, isStr := l.Value.(string)
		if !isStr {
			return nil, false, false
		}
		if c.Name == "match_phrase" {
			q := bleve.NewMatchPhraseQuery(s)
			q.SetField(f)
			q.Analyzer = standard.Name
			return q, false, true
		}
		q := bleve.NewMatchQuery(s)
		q.SetField(f)
		q.Analyzer = standard.Name
		return q, false, true
	case "=", "<", "<=", ">", ">=":
		return t.compare(c)
	}
	return nil, false, false
}

var flipped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

func (t *translator) compare(c *expr.CallExpr) (query.Query, bool, bool) {
	op, a, b := c.Name, c.Args[0], c.Args[1]
	if _, isLit := a.(*expr.Literal); isLit {
		op, a, b = flipped[op], b, a
	}
	f, ft, ok := t.field(a)
	l, isLit := b.(*expr.Literal)
	if !ok || !isLit || l.Value == nil || t.text[f] {
		return nil, false, false
	}
	incl, excl := true, false
	lo, hi := op == ">" || op == ">=" || op == "=", op == "<" || op == "<=" || op == "="
	loIncl, hiIncl := incl, incl
	if op == ">" {
		loIncl = excl
	}
	if op == "<" {
		hiIncl = excl
	}
	switch ft.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		s, ok := l.Value.(string)
		if !ok {
			return nil, false, false
		}
		if op == "=" {
			q := bleve.NewTermQuery(s)
			q.SetField(f)
			return q, true, true
		}
		var mn, mx string
		if lo {
			mn = s
		}
		if hi {
			mx = s
		}
		q := bleve.NewTermRangeInclusiveQuery(mn, mx, &loIncl, &hiIncl)
		q.SetField(f)
		return q, true, true
	case arrow.BOOL:
		v, ok := l.Value.(bool)
		if !ok || op != "=" {
			return nil, false, false
		}
		q := bleve.NewBoolFieldQuery(v)
		q.SetField(f)
		return q, true, true
	case arrow.TIMESTAMP, arrow.DATE32:
		var tm time.Time
		switch v := l.Value.(type) {
		case int64:
			if l.Type().ID() != arrow.TIMESTAMP || ft.ID() != arrow.TIMESTAMP {
				return nil, false, false
			}
			tm = types.FromMicros(v)
		case int32:
			if l.Type().ID() != arrow.DATE32 || ft.ID() != arrow.DATE32 {
				return nil, false, false
			}
			tm = time.Unix(int64(v)*86400, 0).UTC()
		default:
			return nil, false, false
		}
		var mn, mx time.Time
		if lo {
			mn = tm
		}
		if hi {
			mx = tm
		}
		q := bleve.NewDateRangeInclusiveQuery(mn, mx, &loIncl, &hiIncl)
		q.SetField(f)
		return q, true, true
	}
	if !numeric(ft) {
		return nil, false, false
	}
	var v float64
	switch x := l.Value.(type) {
	case int32:
		v = float64(x)
	case int64:
		v = float64(x)
	case float64:
		v = x
	default:
		return nil, false, false
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1<<53 {
		return nil, false, false
	}
	var mn, mx *float64
	if lo {
		mn = &v
	}
	if hi {
		mx = &v
	}
	q := bleve.NewNumericRangeInclusiveQuery(mn, mx, &loIncl, &hiIncl)
	q.SetField(f)
	return q, true, true
}

func numeric(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.FLOAT64:
		return true
	}
	return false
}

// field resolves a column or struct field path to its name in the index.
func (t *translator) field(e expr.Expr) (string, arrow.DataType, bool) {
	switch n := e.(type) {
	case *expr.Column:
		if n.Index < 0 || n.Index >= t.schema.NumFields() {
			return "", nil, false
		}
		f := t.schema.Field(n.Index)
		if !scalar(f.Type) {
			return "", nil, false
		}
		return f.Name, f.Type, true
	case *expr.FieldExpr:
		c, ok := n.Arg.(*expr.Column)
		if !ok || c.Index < 0 || c.Index >= t.schema.NumFields() || !scalar(n.Type()) {
			return "", nil, false
		}
		return t.schema.Field(c.Index).Name + "." + n.Name, n.Type(), true
	case *expr.CastExpr:
		p, ft, ok := t.field(n.Arg)
		if ok && numeric(ft) && ft.ID() != arrow.FLOAT64 && numeric(n.To) {
			return p, ft, true
		}
	}
	return "", nil, false
}

func scalar(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.FIXED_SIZE_LIST:
		return false
	}
	return true
}
