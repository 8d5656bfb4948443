package index

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/search/query"

	"sluice/internal/connector/pushdown"
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
	return t.pred(pushdown.Normalize(e, t.schema, pushdown.IntegerCasts))
}

func (t *translator) pred(p pushdown.Pred) (query.Query, bool, bool) {
	switch n := p.(type) {
	case pushdown.In:
		if n.Not {
			return nil, false, false
		}
		var qs []query.Query
		for _, v := range n.Values {
			q, _, ok := t.compare(pushdown.Compare{Ref: n.Ref, Op: pushdown.Eq, Value: v})
			if !ok {
				return nil, false, false
			}
			qs = append(qs, q)
		}
		return bleve.NewDisjunctionQuery(qs...), false, true
	case pushdown.And:
		l, le, lok := t.pred(n.Left)
		r, re, rok := t.pred(n.Right)
		switch {
		case lok && rok:
			return bleve.NewConjunctionQuery(l, r), le && re, true
		case lok:
			return l, false, true
		case rok:
			return r, false, true
		}
	case pushdown.Or:
		l, le, lok := t.pred(n.Left)
		r, re, rok := t.pred(n.Right)
		if lok && rok {
			return bleve.NewDisjunctionQuery(l, r), le && re, true
		}
	case pushdown.Not:
		q, exact, ok := t.pred(n.Arg)
		if ok && exact {
			b := bleve.NewBooleanQuery()
			b.AddMust(bleve.NewMatchAllQuery())
			b.AddMustNot(q)
			return b, false, true
		}
	case pushdown.Match:
		f, _, ok := t.field(n.Ref)
		if !ok || !t.text[f] {
			return nil, false, false
		}
		if n.Phrase {
			q := bleve.NewMatchPhraseQuery(n.Text)
			q.SetField(f)
			q.Analyzer = standard.Name
			return q, false, true
		}
		q := bleve.NewMatchQuery(n.Text)
		q.SetField(f)
		q.Analyzer = standard.Name
		return q, false, true
	case pushdown.Compare:
		return t.compare(n)
	}
	return nil, false, false
}

func (t *translator) compare(c pushdown.Compare) (query.Query, bool, bool) {
	op, l := c.Op, c.Value
	f, ft, ok := t.field(c.Ref)
	if !ok || op == pushdown.Ne || t.text[f] {
		return nil, false, false
	}
	incl, excl := true, false
	lo, hi := op == pushdown.Gt || op == pushdown.Ge || op == pushdown.Eq, op == pushdown.Lt || op == pushdown.Le || op == pushdown.Eq
	loIncl, hiIncl := incl, incl
	if op == pushdown.Gt {
		loIncl = excl
	}
	if op == pushdown.Lt {
		hiIncl = excl
	}
	switch ft.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		s, ok := l.V.(string)
		if !ok {
			return nil, false, false
		}
		if op == pushdown.Eq {
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
		v, ok := l.V.(bool)
		if !ok || op != pushdown.Eq {
			return nil, false, false
		}
		q := bleve.NewBoolFieldQuery(v)
		q.SetField(f)
		return q, true, true
	case arrow.TIMESTAMP, arrow.DATE32:
		var tm time.Time
		switch v := l.V.(type) {
		case int64:
			if l.Type.ID() != arrow.TIMESTAMP || ft.ID() != arrow.TIMESTAMP {
				return nil, false, false
			}
			tm = types.FromMicros(v)
		case int32:
			if l.Type.ID() != arrow.DATE32 || ft.ID() != arrow.DATE32 {
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
	switch x := l.V.(type) {
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

// field is the name a column or struct field is indexed under; the index
// holds scalars only, and struct fields one level deep.
func (t *translator) field(r pushdown.Ref) (string, arrow.DataType, bool) {
	if len(r.Path) > 1 || !scalar(r.Type) {
		return "", nil, false
	}
	return r.Name(), r.Type, true
}

func scalar(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.FIXED_SIZE_LIST:
		return false
	}
	return true
}
