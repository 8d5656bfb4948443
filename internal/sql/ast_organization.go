package sql

import "strings"

// Organization is Spark's CLUSTER BY, DISTRIBUTE BY and SORT BY at the
// end of a query. Sluice runs a query as one partition, so DISTRIBUTE BY
// changes nothing, SORT BY (a sort within each partition) orders the
// whole result as ORDER BY does, and CLUSTER BY x is DISTRIBUTE BY x
// SORT BY x. Spark allows CLUSTER BY alone or DISTRIBUTE BY with SORT
// BY, never with ORDER BY; the parser keeps to that.
type Organization struct {
	At         Pos
	ClusterBy  []Expr
	Distribute []Expr
	SortBy     []*OrderItem
}

func (o *Organization) Pos() Pos { return o.At }

// String prints the clauses in the one order Spark reads them.
func (o *Organization) String() string {
	var b strings.Builder
	if len(o.ClusterBy) > 0 {
		b.WriteString("CLUSTER BY ")
		writeList(&b, o.ClusterBy)
	}
	if len(o.Distribute) > 0 {
		b.WriteString("DISTRIBUTE BY ")
		writeList(&b, o.Distribute)
	}
	if len(o.SortBy) > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("SORT BY ")
		for i, it := range o.SortBy {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(it.String())
		}
	}
	return b.String()
}

// OrderItems is the order the clauses impose on a one-partition result:
// SORT BY's items, or CLUSTER BY's keys ascending.
func (o *Organization) OrderItems() []*OrderItem {
	if len(o.SortBy) > 0 {
		return o.SortBy
	}
	out := make([]*OrderItem, len(o.ClusterBy))
	for i, e := range o.ClusterBy {
		out[i] = &OrderItem{At: e.Pos(), Expr: e}
	}
	return out
}
