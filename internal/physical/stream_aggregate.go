package physical

import (
	"fmt"

	"sluice/internal/exec"
	"sluice/internal/plan"
)

// streamAggregate picks the streaming form of an aggregation: per window
// when a GROUP BY key is an event-time window, else one set of groups
// written whole every epoch.
func (c *compiler) streamAggregate(a *plan.Aggregate) (exec.Operator, error) {
	names := append(append([]string{}, a.KeyNames...), a.AggNames...)
	window := -1
	for i, k := range a.Keys {
		if plan.IsWindowKey(k) {
			window = i
			break
		}
	}
	mode := c.opts.OutputMode
	if window >= 0 {
		if mode == exec.Append && c.p.EventTime == nil {
			return nil, fmt.Errorf("append output mode needs a watermark on the streamed table to close windows (WATERMARK FOR ... in CREATE TABLE, or watermark_delay)")
		}
		return exec.NewWindowAggregate(a.Keys, names, a.Aggs, window, mode)
	}
	if mode == exec.Append {
		return nil, fmt.Errorf("append output mode is not supported for a streaming aggregation without an event-time window; use output_mode = 'complete' or 'update'")
	}
	h, err := exec.NewHashAggregate(a.Keys, names, a.Aggs)
	if err != nil {
		return nil, err
	}
	return exec.NewStreamAggregate(h, mode), nil
}

// onStreamPath reports whether n reads the stream (its left-most scan is
// the streaming one), as opposed to a static join side.
func onStreamPath(n plan.Node) bool {
	for {
		switch t := n.(type) {
		case *plan.Scan:
			return true
		case *plan.Values:
			return false
		case *plan.Join:
			n = t.Left
		default:
			kids := n.Children()
			if len(kids) == 0 {
				return false
			}
			n = kids[0]
		}
	}
}

// rowwiseEventTime is the event-time node under n when only row-by-row
// operators lie between: filters, projections, explodes such as HOP's,
// and the stream side of a stream-static join (stateless in Spark too).
// Then each row's window is the one its event time gives, and a window
// aggregate or session window can judge lateness as Spark does. Through
// a session assignment or another aggregate it is nil: their output is
// emitted at the watermark and never late.
func rowwiseEventTime(n plan.Node) *plan.EventTime {
	for {
		switch t := n.(type) {
		case *plan.EventTime:
			return t
		case *plan.Filter:
			n = t.Input
		case *plan.Project:
			n = t.Input
		case *plan.Explode:
			n = t.Input
		case *plan.Join:
			n = t.Left
		default:
			return nil
		}
	}
}
