package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// Set operations other than UNION.
const (
	SetIntersect = "INTERSECT"
	SetExcept    = "EXCEPT"
)

// SetOperation is Left INTERSECT or EXCEPT [ALL] Right over inputs of the
// same column types (the binder casts them to common types; names are
// Left's). Rows compare as GROUP BY keys do, so NULLs are equal. Without
// All the result has no duplicates; with All a row Left has l times and
// Right r times comes min(l, r) times (INTERSECT ALL) or max(l - r, 0)
// times (EXCEPT ALL).
//
// It has no operator of its own: Lower rewrites it into a union of both
// inputs tagged by side, a hash aggregate counting each row per side
// (memory-bounded and spilling like any GROUP BY), a filter on the counts
// and, for ALL, a generator repeating each row its count of times.
type SetOperation struct {
	Op          string // SetIntersect or SetExcept
	All         bool
	Left, Right Node
}

var _ Node = (*SetOperation)(nil)

// Schema is Left's.
func (s *SetOperation) Schema() *arrow.Schema { return s.Left.Schema() }

// Children are Left and Right.
func (s *SetOperation) Children() []Node { return []Node{s.Left, s.Right} }

// WithChildren replaces both inputs.
func (s *SetOperation) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(s, children, 2); err != nil {
		return nil, err
	}
	c := *s
	c.Left, c.Right = children[0], children[1]
	return &c, nil
}

func (s *SetOperation) String() string {
	name := map[string]string{SetIntersect: "Intersect", SetExcept: "Except"}[s.Op]
	if s.All {
		name += " All"
	}
	return name
}

// Lower returns the plan of existing nodes that computes s (see the type
// doc); the columns it adds are named __left and __right.
func (s *SetOperation) Lower() (Node, error) {
	sch := s.Left.Schema()
	n := sch.NumFields()
	names := make([]string, n)
	keys := make([]expr.Expr, n)
	for i, f := range sch.Fields() {
		names[i] = f.Name
		keys[i] = expr.Col(i, f.Name, f.Type)
	}
	tagged := func(in Node, l, r int64) (Node, error) {
		exprs := append([]expr.Expr{}, keys...)
		for _, v := range []int64{l, r} {
			lit, err := expr.Lit(v, types.BigInt)
			if err != nil {
				return nil, err
			}
			exprs = append(exprs, lit)
		}
		return &Project{Input: in, Exprs: exprs, Names: append(append([]string{}, names...), "__left", "__right")}, nil
	}
	l, err := tagged(s.Left, 1, 0)
	if err != nil {
		return nil, err
	}
	r, err := tagged(s.Right, 0, 1)
	if err != nil {
		return nil, err
	}
	agg := &Aggregate{Input: &Union{Inputs: []Node{l, r}}, Keys: keys, KeyNames: names, AggNames: []string{"__left", "__right"}}
	for j := 0; j < 2; j++ {
		a, err := expr.NewAggregate("sum", []expr.Expr{expr.Col(n+j, agg.AggNames[j], types.BigInt)}, false)
		if err != nil {
			return nil, fmt.Errorf("set operation: %w", err)
		}
		agg.Aggs = append(agg.Aggs, a)
	}
	cl := expr.Col(n, "__left", agg.Aggs[0].Type())
	cr := expr.Col(n+1, "__right", agg.Aggs[1].Type())
	zero, err := expr.Lit(int64(0), types.BigInt)
	if err != nil {
		return nil, err
	}
	call := func(name string, args ...expr.Expr) expr.Expr {
		if err != nil {
			return nil
		}
		var e expr.Expr
		e, err = expr.Call(name, args...)
		return e
	}
	var pred, count expr.Expr
	switch {
	case s.Op == SetIntersect:
		pred = call("and", call(">", cl, zero), call(">", cr, zero))
		count = call("least", cl, cr)
	case s.All:
		pred = call(">", cl, cr)
		count = call("-", cl, cr)
	default:
		pred = call("and", call(">", cl, zero), call("=", cr, zero))
	}
	if err != nil {
		return nil, fmt.Errorf("set operation: %w", err)
	}
	var out Node = &Filter{Input: agg, Pred: pred}
	if s.All {
		// Each surviving group comes out count times.
		ok, err := expr.Lit(true, types.Boolean)
		if err != nil {
			return nil, err
		}
		c, err := expr.Cast(count, types.Int)
		if err != nil {
			return nil, err
		}
		rep := call("array_repeat", ok, c)
		if err != nil {
			return nil, fmt.Errorf("set operation: %w", err)
		}
		out = &Explode{Input: out, Gen: rep, Names: []string{"__copy"}, Types: []arrow.DataType{types.Boolean}}
	}
	return &Project{Input: out, Exprs: keys, Names: names}, nil
}
