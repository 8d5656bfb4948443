package plan

import "sluice/internal/expr"

// MergeFilters joins Filter(Filter(x)) into one Filter with AND, so later
// rules see all conjuncts at once.
type MergeFilters struct{}

// Name of the rule.
func (MergeFilters) Name() string { return "merge_filters" }

// Apply merges a filter directly above another.
func (MergeFilters) Apply(n Node) (Node, bool, error) {
	f, ok := n.(*Filter)
	if !ok {
		return n, false, nil
	}
	inner, ok := f.Input.(*Filter)
	if !ok {
		return n, false, nil
	}
	conj := append(expr.SplitConjuncts(inner.Pred), expr.SplitConjuncts(f.Pred)...)
	return &Filter{Input: inner.Input, Pred: expr.AndAll(dedupe(conj))}, true, nil
}

func dedupe(es []expr.Expr) []expr.Expr {
	seen := map[string]bool{}
	var out []expr.Expr
	for _, e := range es {
		if !seen[exprKey(e)] {
			seen[exprKey(e)] = true
			out = append(out, e)
		}
	}
	return out
}
