package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Union concatenates inputs of the same column types (UNION ALL). The
// binder casts inputs to common types first; names come from the first.
type Union struct {
	Inputs []Node
}

// Schema is the first input's.
func (u *Union) Schema() *arrow.Schema { return u.Inputs[0].Schema() }

// Children are the inputs.
func (u *Union) Children() []Node { return u.Inputs }

// WithChildren replaces the inputs.
func (u *Union) WithChildren(children ...Node) (Node, error) {
	if len(children) != len(u.Inputs) {
		return nil, fmt.Errorf("internal error: Union takes %d children, got %d", len(u.Inputs), len(children))
	}
	return &Union{Inputs: children}, nil
}

func (u *Union) String() string { return "UnionAll" }
