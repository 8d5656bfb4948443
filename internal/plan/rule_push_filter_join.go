package plan

import "sluice/internal/expr"

// PushFilterIntoJoin moves conjuncts that read only one side of a join
// below it: the left side for inner and left joins, the right side for
// inner and right joins (pushing into the preserved side of an outer join
// would change which rows get NULL-extended).
type PushFilterIntoJoin struct{}

// Name of the rule.
func (PushFilterIntoJoin) Name() string { return "push_filter_into_join" }

// Apply splits the filter's conjuncts by side.
func (PushFilterIntoJoin) Apply(n Node) (Node, bool, error) {
	f, ok := n.(*Filter)
	if !ok {
		return n, false, nil
	}
	j, ok := f.Input.(*Join)
	if !ok {
		return n, false, nil
	}
	nl := j.Left.Schema().NumFields()
	canLeft := j.Kind == InnerJoin || j.Kind == LeftJoin || j.Kind == CrossJoin || j.Kind.LeftOnly()
	canRight := j.Kind == InnerJoin || j.Kind == RightJoin || j.Kind == CrossJoin
	var left, right, kept []expr.Expr
	for _, c := range expr.SplitConjuncts(f.Pred) {
		cols := expr.Columns(c)
		onlyLeft, onlyRight := len(cols) > 0, len(cols) > 0
		for _, i := range cols {
			if i < nl {
				onlyRight = false
			} else {
				onlyLeft = false
			}
		}
		switch {
		case onlyLeft && canLeft:
			left = append(left, c)
		case onlyRight && canRight:
			m := map[int]int{}
			for _, i := range cols {
				m[i] = i - nl
			}
			right = append(right, expr.Remap(c, m))
		default:
			kept = append(kept, c)
		}
	}
	if len(left) == 0 && len(right) == 0 {
		return n, false, nil
	}
	nj := *j
	if len(left) > 0 {
		nj.Left = &Filter{Input: j.Left, Pred: expr.AndAll(left)}
	}
	if len(right) > 0 {
		nj.Right = &Filter{Input: j.Right, Pred: expr.AndAll(right)}
	}
	if len(kept) == 0 {
		return &nj, true, nil
	}
	return &Filter{Input: &nj, Pred: expr.AndAll(kept)}, true, nil
}
