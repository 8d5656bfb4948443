package sql

import "strings"

// Pivot is from PIVOT (agg [AS a], ... FOR col IN (v [AS x], ...)) or
// FOR (c1, c2) IN ((v1, v2) [AS x], ...): Spark's pivot of the whole FROM
// clause before it. Each value gives one column per aggregate; the
// columns neither pivoted nor aggregated group the rows.
type Pivot struct {
	At   Pos
	From TableExpr
	// Aggs are the aggregate expressions with their aliases ("" when
	// none was written).
	Aggs    []*SelectItem
	Columns []string
	// Values are the pivot values; with several Columns each is a row
	// value, a struct(...) Call.
	Values []*PivotValue
}

// PivotValue is one value of PIVOT's IN list; Alias is "" when none was
// written.
type PivotValue struct {
	At    Pos
	Expr  Expr
	Alias string
}

func (p *Pivot) Pos() Pos      { return p.At }
func (v *PivotValue) Pos() Pos { return v.At }
func (*Pivot) tableExpr()      {}

var _ TableExpr = (*Pivot)(nil)

func (p *Pivot) String() string {
	var b strings.Builder
	b.WriteString(p.From.String())
	b.WriteString(" PIVOT (")
	for i, a := range p.Aggs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.String())
	}
	b.WriteString(" FOR ")
	if len(p.Columns) == 1 {
		b.WriteString(QuoteIdent(p.Columns[0]))
	} else {
		b.WriteString("(" + identList(p.Columns) + ")")
	}
	b.WriteString(" IN (")
	for i, v := range p.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Expr.String() + aliasString(v.Alias))
	}
	b.WriteString("))")
	return b.String()
}
