package plan

// PushFilterIntoScan hands a filter directly above a scan to the scan, so
// its source can skip partitions, row groups or documents. The Filter node
// stays: sources may return extra rows.
type PushFilterIntoScan struct{}

// Name of the rule.
func (PushFilterIntoScan) Name() string { return "push_filter_into_scan" }

// Apply records the predicate on the scan.
func (PushFilterIntoScan) Apply(n Node) (Node, bool, error) {
	f, ok := n.(*Filter)
	if !ok {
		return n, false, nil
	}
	s, ok := f.Input.(*Scan)
	if !ok || (s.Filter != nil && s.Filter.String() == f.Pred.String()) {
		return n, false, nil
	}
	ns := *s
	ns.Filter = f.Pred
	return &Filter{Input: &ns, Pred: f.Pred}, true, nil
}
