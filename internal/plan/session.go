package plan

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// SessionAssign appends the SESSION(ts, gap) window of each row, per the
// other GROUP BY keys: a session closes after gap without events. Its
// output is the input's columns then the session (__session).
type SessionAssign struct {
	Input Node
	Keys  []expr.Expr
	TS    expr.Expr
	Gap   int64 // microseconds
}

// Schema is the input's columns then the session.
func (s *SessionAssign) Schema() *arrow.Schema {
	fs := append(append([]arrow.Field{}, s.Input.Schema().Fields()...),
		arrow.Field{Name: sessionColumn, Type: expr.WindowType, Nullable: true})
	return arrow.NewSchema(fs, nil)
}

// Children is the input.
func (s *SessionAssign) Children() []Node { return []Node{s.Input} }

// WithChildren replaces the input.
func (s *SessionAssign) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(s, children, 1); err != nil {
		return nil, err
	}
	c := *s
	c.Input = children[0]
	return &c, nil
}

func (s *SessionAssign) String() string {
	return fmt.Sprintf("SessionWindow %s gap=%s keys=%s", s.TS, time.Duration(s.Gap)*time.Microsecond, exprList(s.Keys))
}

// sessionColumn names the assigned session column.
const sessionColumn = "__session"
