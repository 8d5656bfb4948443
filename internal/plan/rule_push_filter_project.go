package plan

import "sluice/internal/expr"

// PushFilterThroughProject moves a filter below a projection when every
// column the filter reads is a plain column of the projection's input
// (SELECT * FROM (SELECT a, b FROM t) WHERE a > 1).
type PushFilterThroughProject struct{}

// Name of the rule.
func (PushFilterThroughProject) Name() string { return "push_filter_through_project" }

// Apply swaps Filter and Project when it can.
func (PushFilterThroughProject) Apply(n Node) (Node, bool, error) {
	f, ok := n.(*Filter)
	if !ok {
		return n, false, nil
	}
	p, ok := f.Input.(*Project)
	if !ok {
		return n, false, nil
	}
	var pushed, kept []expr.Expr
	for _, c := range expr.SplitConjuncts(f.Pred) {
		mapping := map[int]int{}
		ok := true
		for _, i := range expr.Columns(c) {
			col, isCol := p.Exprs[i].(*expr.Column)
			if !isCol {
				ok = false
				break
			}
			mapping[i] = col.Index
		}
		if ok {
			pushed = append(pushed, expr.Remap(c, mapping))
		} else {
			kept = append(kept, c)
		}
	}
	if len(pushed) == 0 {
		return n, false, nil
	}
	np := *p
	np.Input = &Filter{Input: p.Input, Pred: expr.AndAll(pushed)}
	if len(kept) == 0 {
		return &np, true, nil
	}
	return &Filter{Input: &np, Pred: expr.AndAll(kept)}, true, nil
}
