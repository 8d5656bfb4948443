package plan

// PushFilterThroughEventTime moves a filter below the event-time node:
// dropping late rows and filtering commute, and below it the filter can
// reach the scan (partition pruning for streams).
type PushFilterThroughEventTime struct{}

// Name of the rule.
func (PushFilterThroughEventTime) Name() string { return "push_filter_through_event_time" }

// Apply swaps Filter and EventTime.
func (PushFilterThroughEventTime) Apply(n Node) (Node, bool, error) {
	f, ok := n.(*Filter)
	if !ok {
		return n, false, nil
	}
	et, ok := f.Input.(*EventTime)
	if !ok {
		return n, false, nil
	}
	c := *et
	c.Input = &Filter{Input: et.Input, Pred: f.Pred}
	return &c, true, nil
}
