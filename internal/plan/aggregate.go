package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// Aggregate groups its input by Keys and computes Aggs per group. Its
// output is the key columns, then the aggregate columns.
type Aggregate struct {
	Input    Node
	Keys     []expr.Expr
	KeyNames []string
	Aggs     []*expr.Aggregate
	AggNames []string
}

// Schema is keys then aggregates.
func (a *Aggregate) Schema() *arrow.Schema {
	names := append(append([]string{}, a.KeyNames...), a.AggNames...)
	ts := make([]arrow.DataType, 0, len(names))
	for _, k := range a.Keys {
		ts = append(ts, k.Type())
	}
	for _, g := range a.Aggs {
		ts = append(ts, g.Type())
	}
	return schemaOf(names, ts)
}

// Children is the input.
func (a *Aggregate) Children() []Node { return []Node{a.Input} }

// WithChildren replaces the input.
func (a *Aggregate) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(a, children, 1); err != nil {
		return nil, err
	}
	c := *a
	c.Input = children[0]
	return &c, nil
}

func (a *Aggregate) String() string {
	names := make([]string, len(a.Aggs))
	for i, g := range a.Aggs {
		names[i] = g.String()
	}
	return fmt.Sprintf("Aggregate keys=%s aggs=[%s]", exprList(a.Keys), joinStrings(names))
}
