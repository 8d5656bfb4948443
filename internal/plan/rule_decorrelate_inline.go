package plan

import "sluice/internal/expr"

// DecorrelateInline lets a Project or Filter read through the Project a
// decorrelation rule put under it to add a subquery's value (an Inline
// Project): a Project above takes the value expressions in its own
// columns, and a Filter moves below, so the plan shows one Project with
// the value where the query uses it.
type DecorrelateInline struct{}

var _ Rule = DecorrelateInline{}

// Name of the rule.
func (DecorrelateInline) Name() string { return "decorrelate_inline" }

// Apply merges a Project, or swaps a Filter, with an Inline Project below.
func (DecorrelateInline) Apply(n Node) (Node, bool, error) {
	var in *Project
	switch t := n.(type) {
	case *Project:
		in, _ = t.Input.(*Project)
	case *Filter:
		in, _ = t.Input.(*Project)
	}
	if in == nil || !in.Inline {
		return n, false, nil
	}
	through := func(e expr.Expr) expr.Expr {
		return expr.Transform(e, func(x expr.Expr) expr.Expr {
			if c, ok := x.(*expr.Column); ok && c.Index >= 0 && c.Index < len(in.Exprs) {
				return in.Exprs[c.Index]
			}
			return x
		})
	}
	switch t := n.(type) {
	case *Project:
		out := &Project{Input: in.Input, Names: t.Names, Inline: t.Inline}
		for _, e := range t.Exprs {
			out.Exprs = append(out.Exprs, through(e))
		}
		return out, true, nil
	case *Filter:
		c := *in
		c.Input = &Filter{Input: in.Input, Pred: through(t.Pred)}
		return &c, true, nil
	}
	return n, false, nil
}
