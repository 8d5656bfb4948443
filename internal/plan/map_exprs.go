package plan

import "sluice/internal/expr"

// mapExprs returns a copy of n with fn applied to each of its own
// expressions (not its children's).
func mapExprs(n Node, fn func(expr.Expr) (expr.Expr, error)) (Node, error) {
	all := func(es []expr.Expr) ([]expr.Expr, error) {
		out := make([]expr.Expr, len(es))
		for i, e := range es {
			x, err := fn(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	keys := func(ks []SortKey) ([]SortKey, error) {
		out := make([]SortKey, len(ks))
		for i, k := range ks {
			x, err := fn(k.Expr)
			if err != nil {
				return nil, err
			}
			out[i] = k
			out[i].Expr = x
		}
		return out, nil
	}
	var err error
	switch t := n.(type) {
	case *Filter:
		c := *t
		c.Pred, err = fn(t.Pred)
		return &c, err
	case *Project:
		c := *t
		c.Exprs, err = all(t.Exprs)
		return &c, err
	case *Aggregate:
		c := *t
		if c.Keys, err = all(t.Keys); err != nil {
			return nil, err
		}
		c.Aggs = make([]*expr.Aggregate, len(t.Aggs))
		for i, a := range t.Aggs {
			args, err := all(a.Args)
			if err != nil {
				return nil, err
			}
			var filter expr.Expr
			if a.Filtered {
				args, filter = args[:len(args)-1], args[len(args)-1]
			}
			if c.Aggs[i], err = expr.NewFilteredAggregate(a.Name, args, a.Distinct, filter); err != nil {
				return nil, err
			}
		}
		return &c, nil
	case *Sort:
		c := *t
		c.Keys, err = keys(t.Keys)
		return &c, err
	case *TopN:
		c := *t
		c.Keys, err = keys(t.Keys)
		return &c, err
	case *Join:
		c := *t
		if c.LeftKeys, err = all(t.LeftKeys); err != nil {
			return nil, err
		}
		if c.RightKeys, err = all(t.RightKeys); err != nil {
			return nil, err
		}
		if t.Residual != nil {
			c.Residual, err = fn(t.Residual)
		}
		return &c, err
	case *SessionAssign:
		c := *t
		if c.Keys, err = all(t.Keys); err != nil {
			return nil, err
		}
		c.TS, err = fn(t.TS)
		return &c, err
	case *Apply:
		c := *t
		if t.Probe != nil {
			c.Probe, err = fn(t.Probe)
		}
		return &c, err
	case *Explode:
		c := *t
		c.Gen, err = fn(t.Gen)
		return &c, err
	}
	return n, nil
}
