package plan

// LimitSortToTopN replaces Limit(Sort(x)) with TopN(x), which keeps only
// N+offset rows in a heap instead of sorting everything. A projection
// between the two (dropping ORDER BY helper columns) is looked through.
type LimitSortToTopN struct{}

// Name of the rule.
func (LimitSortToTopN) Name() string { return "limit_sort_to_topn" }

// Apply fuses the pair.
func (LimitSortToTopN) Apply(n Node) (Node, bool, error) {
	l, ok := n.(*Limit)
	if !ok || l.N < 0 {
		return n, false, nil
	}
	switch in := l.Input.(type) {
	case *Sort:
		return &TopN{Input: in.Input, Keys: in.Keys, N: l.N, Offset: l.Offset}, true, nil
	case *Project:
		if s, ok := in.Input.(*Sort); ok {
			np := *in
			np.Input = &TopN{Input: s.Input, Keys: s.Keys, N: l.N, Offset: l.Offset}
			return &np, true, nil
		}
	}
	return n, false, nil
}
