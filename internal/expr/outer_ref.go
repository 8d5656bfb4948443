package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// OuterRef is a correlated subquery's reference to a column of an
// enclosing query: Depth 1 is the query the subquery appears in, 2 the
// one around that, and so on; Index is the column's position in that
// query's input at the subquery (the Apply node's input). It is never
// evaluated: the planner's decorrelation rules turn every one into a
// join column before the plan runs.
type OuterRef struct {
	Depth int
	Index int
	Name  string
	typ   arrow.DataType
}

var _ Expr = (*OuterRef)(nil)

// Outer returns a reference to column index of the query depth levels out.
func Outer(depth, index int, name string, t arrow.DataType) *OuterRef {
	return &OuterRef{Depth: depth, Index: index, Name: name, typ: t}
}

// Type is the outer column's type.
func (o *OuterRef) Type() arrow.DataType { return o.typ }

// Eval fails: an outer reference left in a plan is a planner bug.
func (o *OuterRef) Eval(context.Context, arrow.RecordBatch) (arrow.Array, error) {
	return nil, fmt.Errorf("internal error: outer reference %s was not decorrelated", o)
}

// String prints outer(name), so a plan that still has one shows it.
func (o *OuterRef) String() string { return "outer(" + types.QuoteIdent(o.Name) + ")" }

// Children is empty.
func (o *OuterRef) Children() []Expr { return nil }

func (o *OuterRef) withChildren([]Expr) Expr { c := *o; return &c }

// HasOuter reports whether e holds an OuterRef of depth at least min.
func HasOuter(e Expr, min int) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if o, ok := x.(*OuterRef); ok && o.Depth >= min {
			found = true
		}
		return !found
	})
	return found
}
