package plan

import "sluice/internal/expr"

// GroupKeyOutputs finds the one aggregate under n's projections, filters
// and sorts, and the output columns of n that carry its keys (a key
// itself, a cast of it, a field of a window key). keys is nil when some
// key is not carried; found is false without an aggregate.
func GroupKeyOutputs(n Node) (keys []string, found bool) {
	a, chain := aggregateChain(n)
	if a == nil {
		return nil, false
	}
	// key[c]: which key column c of the aggregate's output is (itself
	// for c < len(Keys)), then mapped up through each projection.
	key := make([]int, a.Schema().NumFields())
	for c := range key {
		key[c] = -1
		if c < len(a.Keys) {
			key[c] = c
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		up := make([]int, len(p.Exprs))
		for j, e := range p.Exprs {
			up[j] = -1
			c, field, ok := keyColumn(e)
			if !ok || c >= len(key) || key[c] < 0 {
				continue
			}
			if field && !IsWindowKey(a.Keys[key[c]]) {
				continue // a field of a struct key names no group
			}
			up[j] = key[c]
		}
		key = up
	}
	covered := make([]bool, len(a.Keys))
	names := n.Schema().Fields()
	for c, k := range key {
		if k >= 0 {
			if !covered[k] {
				keys = append(keys, names[c].Name)
			}
			covered[k] = true
		}
	}
	for _, ok := range covered {
		if !ok {
			return nil, true
		}
	}
	if len(a.Keys) == 0 {
		return nil, true
	}
	return keys, true
}

// AggregateUnder is the aggregate under n's projections, filters and
// sorts, or nil.
func AggregateUnder(n Node) *Aggregate {
	a, _ := aggregateChain(n)
	return a
}

// aggregateChain is AggregateUnder with the projections passed on the
// way down, outermost first.
func aggregateChain(n Node) (*Aggregate, []*Project) {
	var chain []*Project
	in := n
	for {
		switch t := in.(type) {
		case *Project:
			chain = append(chain, t)
			in = t.Input
			continue
		case *Filter:
			in = t.Input
			continue
		case *Sort:
			in = t.Input
			continue
		}
		break
	}
	a, _ := in.(*Aggregate)
	return a, chain
}

// keyColumn is the input column e passes on: the column itself, a cast
// of it, or (field) a field of it.
func keyColumn(e expr.Expr) (col int, field, ok bool) {
	for {
		switch t := e.(type) {
		case *expr.Column:
			return t.Index, field, true
		case *expr.CastExpr:
			e = t.Arg
		case *expr.FieldExpr:
			e, field = t.Arg, true
		default:
			return 0, false, false
		}
	}
}
