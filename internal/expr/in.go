package expr

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// InExpr is x [NOT] IN (list), with SQL's three-valued result: NULL when
// x is NULL, or when nothing matches and the list holds a NULL.
type InExpr struct {
	Arg  Expr
	List []Expr
	Not  bool
	cmp  arrow.DataType
	set  *functions.ValueSet // all-constant lists: one hash lookup per row
	or   Expr                // otherwise: (x = a) OR (x = b) ...
}

var _ Expr = (*InExpr)(nil)

// In builds e [NOT] IN (list).
func In(e Expr, list []Expr, not bool) (Expr, error) {
	if len(list) == 0 {
		return nil, fmt.Errorf("IN needs at least one value")
	}
	t := e.Type()
	for _, x := range list {
		c, err := functions.ComparisonType("IN", t, x.Type())
		if err != nil {
			return nil, fmt.Errorf("%s IN (...): %w", e, err)
		}
		t = c
	}
	all := append([]Expr{e}, list...)
	cast, err := applyCasts(all, repeatType(t, len(all)))
	if err != nil {
		return nil, fmt.Errorf("IN: %w", err)
	}
	in := &InExpr{Arg: cast[0], List: cast[1:], Not: not, cmp: t}
	in.set = buildSet(t, in.List)
	if in.set == nil {
		if in.or, err = orChain(in.Arg, in.List, not); err != nil {
			return nil, fmt.Errorf("IN: %w", err)
		}
	}
	return in, nil
}

func orChain(x Expr, list []Expr, not bool) (Expr, error) {
	var acc Expr
	for _, item := range list {
		eq, err := Call("=", x, item)
		if err != nil {
			return nil, err
		}
		if acc == nil {
			acc = eq
		} else if acc, err = Call("or", acc, eq); err != nil {
			return nil, err
		}
	}
	if not {
		return Call("not", acc)
	}
	return acc, nil
}

func buildSet(t arrow.DataType, list []Expr) *functions.ValueSet {
	vals := make([]any, len(list))
	for i, x := range list {
		l, ok := x.(*Literal)
		if !ok {
			return nil
		}
		vals[i] = l.Value
	}
	return functions.NewValueSet(t, vals)
}

// Type is BOOLEAN.
func (in *InExpr) Type() arrow.DataType { return types.Boolean }

// Eval uses the constant set, or ORs equality tests for computed lists.
func (in *InExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	if in.set == nil {
		return in.or.Eval(ctx, batch)
	}
	x, err := in.Arg.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return in.set.Contains(x, in.Not), nil
}

// String prints x [NOT] IN (a, b).
func (in *InExpr) String() string {
	items := make([]string, len(in.List))
	for i, x := range in.List {
		items[i] = x.String()
	}
	kw := " IN ("
	if in.Not {
		kw = " NOT IN ("
	}
	return "(" + in.Arg.String() + kw + strings.Join(items, ", ") + "))"
}

// Children are the argument, then the list.
func (in *InExpr) Children() []Expr { return append([]Expr{in.Arg}, in.List...) }

func (in *InExpr) withChildren(ch []Expr) Expr {
	c := *in
	c.Arg, c.List = ch[0], ch[1:]
	if c.set == nil {
		// The chain was bound for the same types, so rebinding cannot fail.
		if or, err := orChain(c.Arg, c.List, c.Not); err == nil {
			c.or = or
		}
	}
	return &c
}
