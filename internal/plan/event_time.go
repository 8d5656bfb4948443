package plan

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// EventTime marks a streaming scan's event-time column: rows older than
// the epoch's watermark are dropped there, and the largest event time
// seen drives the next watermark. Delay is in microseconds.
type EventTime struct {
	Input  Node
	Column int
	Delay  int64
}

// Schema is the input's.
func (e *EventTime) Schema() *arrow.Schema { return e.Input.Schema() }

// Children is the input.
func (e *EventTime) Children() []Node { return []Node{e.Input} }

// WithChildren replaces the input.
func (e *EventTime) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(e, children, 1); err != nil {
		return nil, err
	}
	c := *e
	c.Input = children[0]
	return &c, nil
}

func (e *EventTime) String() string {
	return fmt.Sprintf("EventTime %s delay=%s", types.QuoteIdent(e.Input.Schema().Field(e.Column).Name),
		time.Duration(e.Delay)*time.Microsecond)
}
