package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Limit passes at most N rows after skipping Offset. N < 0 means no limit
// (OFFSET alone).
type Limit struct {
	Input  Node
	N      int64
	Offset int64
}

// Schema is the input's.
func (l *Limit) Schema() *arrow.Schema { return l.Input.Schema() }

// Children is the input.
func (l *Limit) Children() []Node { return []Node{l.Input} }

// WithChildren replaces the input.
func (l *Limit) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(l, children, 1); err != nil {
		return nil, err
	}
	c := *l
	c.Input = children[0]
	return &c, nil
}

func (l *Limit) String() string {
	s := "Limit"
	if l.N >= 0 {
		s += fmt.Sprintf(" %d", l.N)
	}
	if l.Offset > 0 {
		s += fmt.Sprintf(" offset=%d", l.Offset)
	}
	return s
}
