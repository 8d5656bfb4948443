package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// PruneColumns removes columns no ancestor reads, down to the scans, so
// decoders materialize only what the query needs (projection pushdown).
func PruneColumns(n Node) (Node, error) {
	need := map[int]bool{}
	for i := 0; i < n.Schema().NumFields(); i++ {
		need[i] = true
	}
	out, _, err := prune(n, need)
	return out, err
}

// prune returns a node producing at least the needed columns of n, and
// where each kept column of n moved to.
func prune(n Node, need map[int]bool) (Node, map[int]int, error) {
	switch t := n.(type) {
	case *Scan:
		var fields []arrow.Field
		m := map[int]int{}
		for i, f := range t.Fields {
			if need[i] {
				m[i] = len(fields)
				fields = append(fields, f)
			}
		}
		if t.Filter != nil {
			for _, i := range expr.Columns(t.Filter) {
				if _, ok := m[i]; !ok {
					m[i] = len(fields)
					fields = append(fields, t.Fields[i])
				}
			}
		}
		if len(fields) == 0 && len(t.Fields) > 0 {
			// Counting rows still needs a column to count.
			m[0] = 0
			fields = append(fields, t.Fields[0])
		}
		c := *t
		c.Fields = fields
		if t.Filter != nil {
			c.Filter = expr.Remap(t.Filter, m)
		}
		return &c, m, nil
	case *Values:
		return t, identity(t.Schema().NumFields()), nil
	case *Filter:
		cn := copySet(need)
		addCols(cn, t.Pred)
		child, m, err := prune(t.Input, cn)
		if err != nil {
			return nil, nil, err
		}
		return &Filter{Input: child, Pred: expr.Remap(t.Pred, m)}, m, nil
	case *Project:
		var keep []int
		for i := range t.Exprs {
			if need[i] {
				keep = append(keep, i)
			}
		}
		if len(keep) == 0 {
			// Only the row count is read above (count(*)): the input's
			// own columns carry it, so no expression is worth computing,
			// nor a column read only for it.
			child, _, err := prune(t.Input, map[int]bool{})
			return child, map[int]int{}, err
		}
		cn := map[int]bool{}
		for _, i := range keep {
			addCols(cn, t.Exprs[i])
		}
		child, cm, err := prune(t.Input, cn)
		if err != nil {
			return nil, nil, err
		}
		m := map[int]int{}
		np := &Project{Input: child}
		for _, i := range keep {
			m[i] = len(np.Exprs)
			np.Exprs = append(np.Exprs, expr.Remap(t.Exprs[i], cm))
			np.Names = append(np.Names, t.Names[i])
		}
		return np, m, nil
	case *Aggregate:
		cn := map[int]bool{}
		for _, k := range t.Keys {
			addCols(cn, k)
		}
		for _, a := range t.Aggs {
			for _, x := range a.Args {
				addCols(cn, x)
			}
		}
		child, cm, err := prune(t.Input, cn)
		if err != nil {
			return nil, nil, err
		}
		out, err := mapExprs(t, func(e expr.Expr) (expr.Expr, error) { return expr.Remap(e, cm), nil })
		if err != nil {
			return nil, nil, err
		}
		out, err = out.WithChildren(child)
		return out, identity(t.Schema().NumFields()), err
	case *Sort, *TopN:
		cn := copySet(need)
		var ks []SortKey
		if s, ok := t.(*Sort); ok {
			ks = s.Keys
		} else {
			ks = t.(*TopN).Keys
		}
		for _, k := range ks {
			addCols(cn, k.Expr)
		}
		child, m, err := prune(t.Children()[0], cn)
		if err != nil {
			return nil, nil, err
		}
		out, err := mapExprs(t, func(e expr.Expr) (expr.Expr, error) { return expr.Remap(e, m), nil })
		if err != nil {
			return nil, nil, err
		}
		out, err = out.WithChildren(child)
		return out, m, err
	case *SessionAssign:
		nin := t.Input.Schema().NumFields()
		cn := map[int]bool{}
		for i := range need {
			if i < nin {
				cn[i] = true
			}
		}
		for _, k := range t.Keys {
			addCols(cn, k)
		}
		addCols(cn, t.TS)
		child, cm, err := prune(t.Input, cn)
		if err != nil {
			return nil, nil, err
		}
		c := *t
		c.Input = child
		c.Keys = remapAll(t.Keys, cm)
		c.TS = expr.Remap(t.TS, cm)
		m := copyMap(cm)
		m[nin] = child.Schema().NumFields()
		return &c, m, nil
	case *Window:
		return pruneWindow(t, need)
	case *EventTime:
		cn := copySet(need)
		cn[t.Column] = true
		child, m, err := prune(t.Input, cn)
		if err != nil {
			return nil, nil, err
		}
		c := *t
		c.Input, c.Column = child, m[t.Column]
		return &c, m, nil
	case *Limit:
		child, m, err := prune(t.Input, need)
		if err != nil {
			return nil, nil, err
		}
		return &Limit{Input: child, N: t.N, Offset: t.Offset}, m, nil
	case *Distinct, *Union, *SetOperation:
		// Every column takes part in duplicate elimination / must line up.
		kids := n.Children()
		nk := make([]Node, len(kids))
		for i, k := range kids {
			c, _, err := prune(k, allCols(k))
			if err != nil {
				return nil, nil, err
			}
			nk[i] = c
		}
		out, err := n.WithChildren(nk...)
		return out, identity(n.Schema().NumFields()), err
	case *Join:
		return pruneJoin(t, need)
	case *Explode:
		nin := t.Input.Schema().NumFields()
		cn := map[int]bool{}
		for i := range need {
			if i < nin {
				cn[i] = true
			}
		}
		addCols(cn, t.Gen)
		child, cm, err := prune(t.Input, cn)
		if err != nil {
			return nil, nil, err
		}
		c := *t
		c.Input = child
		c.Gen = expr.Remap(t.Gen, cm)
		m := copyMap(cm)
		base := child.Schema().NumFields()
		for j := range t.Names {
			m[nin+j] = base + j
		}
		return &c, m, nil
	}
	return nil, nil, fmt.Errorf("internal error: cannot prune %T", n)
}

func pruneJoin(j *Join, need map[int]bool) (Node, map[int]int, error) {
	nl := j.Left.Schema().NumFields()
	ln, rn := map[int]bool{}, map[int]bool{}
	for i := range need {
		if i < nl {
			ln[i] = true
		} else {
			rn[i-nl] = true
		}
	}
	for _, k := range j.LeftKeys {
		addCols(ln, k)
	}
	for _, k := range j.RightKeys {
		addCols(rn, k)
	}
	if j.Residual != nil {
		for _, i := range expr.Columns(j.Residual) {
			if i < nl {
				ln[i] = true
			} else {
				rn[i-nl] = true
			}
		}
	}
	left, lm, err := prune(j.Left, ln)
	if err != nil {
		return nil, nil, err
	}
	right, rm, err := prune(j.Right, rn)
	if err != nil {
		return nil, nil, err
	}
	newNL := left.Schema().NumFields()
	m := copyMap(lm)
	for old, nw := range rm {
		m[old+nl] = nw + newNL
	}
	c := *j
	c.Left, c.Right = left, right
	c.LeftKeys = remapAll(j.LeftKeys, lm)
	c.RightKeys = remapAll(j.RightKeys, rm)
	if j.Residual != nil {
		c.Residual = expr.Remap(j.Residual, m)
	}
	return &c, m, nil
}

func remapAll(es []expr.Expr, m map[int]int) []expr.Expr {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		out[i] = expr.Remap(e, m)
	}
	return out
}

func addCols(set map[int]bool, e expr.Expr) {
	for _, i := range expr.Columns(e) {
		set[i] = true
	}
}

func copySet(s map[int]bool) map[int]bool {
	out := make(map[int]bool, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

func copyMap(m map[int]int) map[int]int {
	out := make(map[int]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func identity(n int) map[int]int {
	m := make(map[int]int, n)
	for i := 0; i < n; i++ {
		m[i] = i
	}
	return m
}

func allCols(n Node) map[int]bool {
	s := map[int]bool{}
	for i := 0; i < n.Schema().NumFields(); i++ {
		s[i] = true
	}
	return s
}
