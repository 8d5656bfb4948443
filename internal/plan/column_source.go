package plan

import "sluice/internal/expr"

// ColumnSource is where a query's output column comes from when it is a
// table's column passed on unchanged, renamed at most: Spark's DESCRIBE
// QUERY and views show that column's COMMENT. The zero value is a
// computed column (an expression, an aggregate, a cast), which has none.
type ColumnSource struct {
	// Table and Column name the scanned table (as the resolver named it)
	// and its column.
	Table, Column string
	// Comment is one a view's column list gave the column; it wins over
	// the table's.
	Comment string
}

// ColumnSources traces each output column of n back to a scanned
// table's column, through projections that only pick or rename columns,
// filters, sorts, limits, group keys, joins (both sides), the first
// branch of a set operation, and the nodes that append columns to their
// input's (windows, generators, subquery values).
func ColumnSources(n Node) []ColumnSource {
	out := make([]ColumnSource, n.Schema().NumFields())
	switch t := n.(type) {
	case *Scan:
		for i, f := range t.Fields {
			out[i] = ColumnSource{Table: t.Table, Column: f.Name}
		}
	case *Project:
		in := ColumnSources(t.Input)
		for i, e := range t.Exprs {
			if c, ok := e.(*expr.Column); ok && c.Index < len(in) {
				out[i] = in[c.Index]
			}
			if i < len(t.Comments) && t.Comments[i] != "" {
				out[i].Comment = t.Comments[i]
			}
		}
	case *Aggregate:
		in := ColumnSources(t.Input)
		for i, k := range t.Keys {
			if c, ok := k.(*expr.Column); ok && c.Index < len(in) {
				out[i] = in[c.Index]
			}
		}
	case *Join:
		copy(out, ColumnSources(t.Left))
		if !t.Kind.LeftOnly() {
			copy(out[t.Left.Schema().NumFields():], ColumnSources(t.Right))
		}
	case *Union:
		copy(out, ColumnSources(t.Inputs[0]))
	case *SetOperation:
		copy(out, ColumnSources(t.Left))
	default:
		// The other nodes keep their first input's columns in front.
		if cs := n.Children(); len(cs) > 0 && prefixOf(cs[0], n) {
			copy(out, ColumnSources(cs[0]))
		}
	}
	return out
}

// prefixOf says whether in's columns are the first columns of n.
func prefixOf(in, n Node) bool {
	a, b := in.Schema(), n.Schema()
	if a.NumFields() > b.NumFields() {
		return false
	}
	for i, f := range a.Fields() {
		if b.Field(i).Name != f.Name {
			return false
		}
	}
	return true
}
