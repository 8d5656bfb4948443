package plan

import (
	"fmt"

	"sluice/internal/connector"
)

// PushLimitIntoScan tells a source that can stop early
// (connector.LimitPusher) how many rows a LIMIT needs: LIMIT n OFFSET m
// over a scan, with only projections between, reads at most n+m rows
// per split. The Limit node stays: the source's cut is per split.
//
// Only projections may sit between: a filter, join or explode changes how
// many rows reach the LIMIT. Never over a streaming query's input, whose
// LIMIT spans epochs. Runs in ScanRules, after the scans are finalized.
type PushLimitIntoScan struct{}

// Name of the rule.
func (PushLimitIntoScan) Name() string { return "push_limit_into_scan" }

// Apply pushes a Limit's row count into the scan under it.
func (PushLimitIntoScan) Apply(n Node) (Node, bool, error) {
	l, ok := n.(*Limit)
	if !ok || l.N < 0 {
		return n, false, nil
	}
	var path []*Project
	in := l.Input
	for {
		p, ok := in.(*Project)
		if !ok {
			break
		}
		path = append(path, p)
		in = p.Input
	}
	scan, ok := in.(*Scan)
	if !ok || scan.Source == nil || scan.Stream || scan.Filter != nil || scan.Pushed != "" {
		return n, false, nil
	}
	pusher, ok := scan.Source.(connector.LimitPusher)
	if !ok {
		return n, false, nil
	}
	rows := l.N + l.Offset
	src, err := pusher.PushLimit(rows)
	if err != nil {
		return nil, false, fmt.Errorf("scan %s: pushing limit: %w", scan.Table, err)
	}
	c := *scan
	c.Source = src
	c.Pushed = fmt.Sprintf("limit=%d", rows)
	var out Node = &c
	for i := len(path) - 1; i >= 0; i-- {
		if out, err = path[i].WithChildren(out); err != nil {
			return nil, false, err
		}
	}
	if out, err = l.WithChildren(out); err != nil {
		return nil, false, err
	}
	return out, true, nil
}
