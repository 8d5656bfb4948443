package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// SortKey is one ORDER BY item, NULL placement resolved.
type SortKey struct {
	Expr       expr.Expr
	Desc       bool
	NullsFirst bool
}

func (k SortKey) String() string {
	s := k.Expr.String()
	if k.Desc {
		s += " DESC"
	}
	// Only the non-default NULL placement is printed.
	if k.NullsFirst == k.Desc {
		if k.NullsFirst {
			s += " NULLS FIRST"
		} else {
			s += " NULLS LAST"
		}
	}
	return s
}

func keyList(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Sort orders its input.
type Sort struct {
	Input Node
	Keys  []SortKey
}

// Schema is the input's.
func (s *Sort) Schema() *arrow.Schema { return s.Input.Schema() }

// Children is the input.
func (s *Sort) Children() []Node { return []Node{s.Input} }

// WithChildren replaces the input.
func (s *Sort) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(s, children, 1); err != nil {
		return nil, err
	}
	c := *s
	c.Input = children[0]
	return &c, nil
}

func (s *Sort) String() string { return fmt.Sprintf("Sort %s", keyList(s.Keys)) }

// TopN is Sort followed by Limit, kept in a bounded heap.
type TopN struct {
	Input  Node
	Keys   []SortKey
	N      int64
	Offset int64
}

// Schema is the input's.
func (t *TopN) Schema() *arrow.Schema { return t.Input.Schema() }

// Children is the input.
func (t *TopN) Children() []Node { return []Node{t.Input} }

// WithChildren replaces the input.
func (t *TopN) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(t, children, 1); err != nil {
		return nil, err
	}
	c := *t
	c.Input = children[0]
	return &c, nil
}

func (t *TopN) String() string {
	s := fmt.Sprintf("TopN %d %s", t.N, keyList(t.Keys))
	if t.Offset > 0 {
		s += fmt.Sprintf(" offset=%d", t.Offset)
	}
	return s
}
