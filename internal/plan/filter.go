package plan

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// Filter keeps the rows where Pred is TRUE.
type Filter struct {
	Input Node
	Pred  expr.Expr
}

// Schema is the input's.
func (f *Filter) Schema() *arrow.Schema { return f.Input.Schema() }

// Children is the input.
func (f *Filter) Children() []Node { return []Node{f.Input} }

// WithChildren replaces the input.
func (f *Filter) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(f, children, 1); err != nil {
		return nil, err
	}
	c := *f
	c.Input = children[0]
	return &c, nil
}

func (f *Filter) String() string { return "Filter " + f.Pred.String() }
