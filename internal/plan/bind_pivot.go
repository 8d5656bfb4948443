package plan

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// pivotCollects are aggregates whose value over no rows is not NULL and
// whose type Spark's two-step pivot does not take: for those Spark
// filters each aggregate's input, and a group missing a pivot value gets
// the aggregate of no rows ([] for collect_list).
var pivotCollects = map[string]bool{"collect_list": true, "collect_set": true, "array_agg": true}

// bindPivot binds from PIVOT (...) as Spark's rewrite does: group by the
// columns neither pivoted nor aggregated; for each pivot value and
// aggregate, the aggregate over the group's rows whose pivot columns
// equal (<=>) the value cast to their types, NULL when the group has no
// such row (Spark's PivotFirst), unless an aggregate is a collection one.
func (b *Binder) bindPivot(pv *sql.Pivot) (Node, *scope, error) {
	sc, err := b.preboundFrom(pv.From)
	if err != nil {
		return nil, nil, err
	}
	used := map[int]bool{}
	pivotCols := make([]*scopeCol, len(pv.Columns))
	for i, name := range pv.Columns {
		c, err := findRef(sc, &sql.ColumnRef{At: pv.At, Parts: []string{name}})
		if err != nil {
			return nil, nil, err
		}
		pivotCols[i], used[c.Index] = c, true
	}
	collects := false
	for _, a := range pv.Aggs {
		aggs := collectAggs(a.Expr, nil)
		if len(aggs) == 0 {
			return nil, nil, errAt(a, "PIVOT needs aggregate expressions, but %s has no aggregate function", a.Expr)
		}
		for _, c := range aggs {
			collects = collects || pivotCollects[strings.ToLower(c.Name)]
		}
		walkSQL(a.Expr, func(x sql.Expr) bool {
			if r, ok := x.(*sql.ColumnRef); ok {
				if c, err := findRef(sc, r); err == nil {
					used[c.Index] = true
				}
			}
			return true
		})
	}
	sel := &sql.Select{At: pv.At, From: pv.From}
	for i := range sc.cols {
		c := &sc.cols[i]
		if c.Hidden || used[c.Index] {
			continue
		}
		ref := colRef(c, pv.At)
		sel.Items = append(sel.Items, &sql.SelectItem{At: pv.At, Expr: ref, Alias: c.Name})
		sel.GroupBy = append(sel.GroupBy, ref)
	}
	for _, v := range pv.Values {
		cond, err := pivotMatch(v, pivotCols)
		if err != nil {
			return nil, nil, err
		}
		for _, a := range pv.Aggs {
			e, err := filteredAgg(a.Expr, cond, collects)
			if err != nil {
				return nil, nil, err
			}
			name, err := b.pivotValueName(v)
			if err != nil {
				return nil, nil, err
			}
			if len(pv.Aggs) > 1 {
				suffix := a.Alias
				if suffix == "" {
					suffix = sql.SparkName(a.Expr, sparkRefs(sc))
				}
				name += "_" + suffix
			}
			sel.Items = append(sel.Items, &sql.SelectItem{At: a.At, Expr: e, Alias: name})
		}
	}
	n, err := b.bindSelect(sel, nil)
	if err != nil {
		return nil, nil, err
	}
	return n, scopeFor("", n.Schema(), nil), nil
}

// pivotMatch is the condition that a row holds pivot value v: each pivot
// column <=> the value's part, cast to the column's type.
func pivotMatch(v *sql.PivotValue, cols []*scopeCol) (sql.Expr, error) {
	var ref error
	walkSQL(v.Expr, func(x sql.Expr) bool {
		if _, ok := x.(*sql.ColumnRef); ok && ref == nil {
			ref = errAt(v.Expr, "PIVOT values must be literals, found %s", v.Expr)
		}
		return ref == nil
	})
	if ref != nil {
		return nil, ref
	}
	parts := []sql.Expr{v.Expr}
	if len(cols) > 1 {
		c, ok := v.Expr.(*sql.Call)
		if !ok || !strings.EqualFold(c.Name, "struct") || len(c.Args) != len(cols) {
			return nil, errAt(v.Expr, "PIVOT value %s must have %d parts, one for each pivot column", v.Expr, len(cols))
		}
		parts = c.Args
	}
	var conds []sql.Expr
	for i, col := range cols {
		cast := &sql.Cast{At: v.At, X: parts[i], Type: col.Type}
		conds = append(conds, &sql.Binary{At: v.At, Op: sql.OpNullSafeEq, L: colRef(col, v.At), R: cast})
	}
	return andAST(conds), nil
}

// filteredAgg is agg with each of its aggregate calls limited to the rows
// where cond holds; unless collects, NULL when no row of the group does.
// It works on a copy read back from agg's text, so each pivot value gets
// its own calls.
func filteredAgg(agg, cond sql.Expr, collects bool) (sql.Expr, error) {
	e, err := sql.ParseExpr(agg.String())
	if err != nil {
		return nil, errAt(agg, "PIVOT aggregate %s: %v", agg, err)
	}
	for _, c := range collectAggs(e, nil) {
		if c.Filter != nil {
			c.Filter = &sql.Binary{At: c.At, Op: sql.OpAnd, L: c.Filter, R: cond}
		} else {
			c.Filter = cond
		}
	}
	if collects {
		return e, nil
	}
	at := agg.Pos()
	matched := &sql.Call{At: at, Name: "count", Star: true, Filter: cond}
	has := &sql.Binary{At: at, Op: sql.OpGt, L: matched, R: &sql.Literal{At: at, Kind: sql.LitInteger, Value: "0"}}
	return &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: has, Then: e}}}, nil
}

// pivotValueName is the column name a pivot value gives, as Spark names
// it: its alias, or the value as a string ("null" for NULL, {a, b} for
// a row value).
func (b *Binder) pivotValueName(v *sql.PivotValue) (string, error) {
	if v.Alias != "" {
		return v.Alias, nil
	}
	switch v.Expr.(type) {
	case *sql.Literal, *sql.Unary, *sql.Call:
		if t, ok := valueText(v.Expr); ok {
			return t, nil
		}
	}
	// Another constant (2020 + 1) is named by its value, as Spark does.
	cast, err := b.bindScalar(&sql.Cast{At: v.At, X: v.Expr, Type: arrow.BinaryTypes.String}, &scope{})
	if err != nil {
		return "", err
	}
	ctx := b.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	val, err := expr.EvalScalar(ctx, cast)
	if err != nil {
		return "", errAt(v.Expr, "PIVOT value %s: %v", v.Expr, err)
	}
	if val == nil {
		return "null", nil
	}
	return fmt.Sprint(val), nil
}

// valueText is the text of a literal value, maybe negated, or of a row
// value of those; ok is false for anything else.
func valueText(e sql.Expr) (string, bool) {
	switch t := e.(type) {
	case *sql.Literal:
		switch t.Kind {
		case sql.LitNull:
			return "null", true
		case sql.LitBool:
			return strings.ToLower(t.Value), true
		case sql.LitInteger, sql.LitDecimal, sql.LitString:
			return t.Value, true
		}
	case *sql.Unary:
		if s, ok := valueText(t.X); ok && t.Op == sql.OpNeg {
			return "-" + s, true
		}
	case *sql.Call:
		if strings.EqualFold(t.Name, "struct") {
			parts := make([]string, len(t.Args))
			for i, a := range t.Args {
				s, ok := valueText(a)
				if !ok {
					return "", false
				}
				parts[i] = s
			}
			return "{" + strings.Join(parts, ", ") + "}", true
		}
	}
	return "", false
}
