package plan

import "github.com/apache/arrow-go/v18/arrow"

// Distinct removes duplicate rows.
type Distinct struct {
	Input Node
}

// Schema is the input's.
func (d *Distinct) Schema() *arrow.Schema { return d.Input.Schema() }

// Children is the input.
func (d *Distinct) Children() []Node { return []Node{d.Input} }

// WithChildren replaces the input.
func (d *Distinct) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(d, children, 1); err != nil {
		return nil, err
	}
	return &Distinct{Input: children[0]}, nil
}

func (d *Distinct) String() string { return "Distinct" }
