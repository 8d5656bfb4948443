package expr

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// CaseExpr is a searched CASE: the first TRUE When picks its Then; Else
// (nil: NULL) otherwise. A simple CASE x WHEN v ... is bound to the
// searched form with x = v conditions. Thens and Else share one type.
type CaseExpr struct {
	Whens []Expr
	Thens []Expr
	Else  Expr
	typ   arrow.DataType
}

var _ Expr = (*CaseExpr)(nil)

// Case builds CASE [operand] WHEN ... THEN ... [ELSE els] END.
func Case(operand Expr, whens, thens []Expr, els Expr) (Expr, error) {
	if len(whens) == 0 || len(whens) != len(thens) {
		return nil, fmt.Errorf("CASE needs as many THEN as WHEN branches and at least one, got %d and %d", len(whens), len(thens))
	}
	conds := make([]Expr, len(whens))
	for i, w := range whens {
		if operand != nil {
			c, err := Call("=", operand, w)
			if err != nil {
				return nil, fmt.Errorf("CASE WHEN %s: %w", w, err)
			}
			conds[i] = c
			continue
		}
		if id := w.Type().ID(); id != arrow.BOOL && id != arrow.NULL {
			return nil, fmt.Errorf("CASE WHEN %s: the condition must be BOOLEAN, got %s", w, typeName(w.Type()))
		}
		conds[i] = w
	}
	branches := append([]Expr{}, thens...)
	if els != nil {
		branches = append(branches, els)
	}
	t, err := commonType("CASE", branches)
	if err != nil {
		return nil, err
	}
	cast, err := applyCasts(branches, repeatType(t, len(branches)))
	if err != nil {
		return nil, fmt.Errorf("CASE: %w", err)
	}
	c := &CaseExpr{Whens: conds, Thens: cast[:len(thens)], typ: t}
	if els != nil {
		c.Else = cast[len(thens)]
	}
	return c, nil
}

// commonType widens the types of es to one, as CASE, COALESCE and IN need.
func commonType(what string, es []Expr) (arrow.DataType, error) {
	var t arrow.DataType = types.Null
	for _, e := range es {
		c, ok := types.Common(t, e.Type())
		if !ok {
			if ct, err := functions.ComparisonType(what, t, e.Type()); err == nil && types.IsString(e.Type()) {
				c, ok = ct, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s: cannot combine %s and %s", what, typeName(t), typeName(e.Type()))
		}
		t = c
	}
	return t, nil
}

func repeatType(t arrow.DataType, n int) []arrow.DataType {
	out := make([]arrow.DataType, n)
	for i := range out {
		out[i] = t
	}
	return out
}

// Type is the common type of the branches.
func (c *CaseExpr) Type() arrow.DataType { return c.typ }

// Eval decides each row's branch, then evaluates only the branches some
// row takes.
func (c *CaseExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	n := int(batch.NumRows())
	choice := make([]int32, n)
	for i := range choice {
		choice[i] = -1
	}
	undecided := n
	for k, w := range c.Whens {
		if undecided == 0 {
			break
		}
		m, err := w.Eval(ctx, batch)
		if err != nil {
			return nil, err
		}
		if b, ok := m.(*array.Boolean); ok {
			for i := 0; i < n; i++ {
				if choice[i] < 0 && b.IsValid(i) && b.Value(i) {
					choice[i] = int32(k)
					undecided--
				}
			}
		}
		m.Release()
	}
	branches := c.Thens
	if c.Else != nil {
		branches = append(append([]Expr{}, c.Thens...), c.Else)
		els := int32(len(c.Thens))
		for i := range choice {
			if choice[i] < 0 {
				choice[i] = els
			}
		}
	}
	used := make([]bool, len(branches))
	for _, ch := range choice {
		if ch >= 0 {
			used[ch] = true
		}
	}
	vals := make([]arrow.Array, len(branches))
	defer func() {
		for _, v := range vals {
			if v != nil {
				v.Release()
			}
		}
	}()
	for k, b := range branches {
		if !used[k] {
			vals[k] = functions.Nulls(c.typ, n)
			continue
		}
		v, err := b.Eval(ctx, batch)
		if err != nil {
			return nil, err
		}
		vals[k] = v
	}
	return functions.Pick(ctx, c.typ, n, vals, choice)
}

// String prints the searched CASE.
func (c *CaseExpr) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for i := range c.Whens {
		fmt.Fprintf(&b, " WHEN %s THEN %s", c.Whens[i], c.Thens[i])
	}
	if c.Else != nil {
		fmt.Fprintf(&b, " ELSE %s", c.Else)
	}
	b.WriteString(" END")
	return b.String()
}

// Children are the conditions, then the results, then Else.
func (c *CaseExpr) Children() []Expr {
	ch := append(append([]Expr{}, c.Whens...), c.Thens...)
	if c.Else != nil {
		ch = append(ch, c.Else)
	}
	return ch
}

func (c *CaseExpr) withChildren(ch []Expr) Expr {
	cc := *c
	k := len(c.Whens)
	cc.Whens = ch[:k]
	cc.Thens = ch[k : 2*k]
	if c.Else != nil {
		cc.Else = ch[2*k]
	}
	return &cc
}
