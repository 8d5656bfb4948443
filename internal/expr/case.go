package expr

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

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
	return evalBranches(ctx, batch, c.typ, branches, choice)
}

// evalBranches evaluates branch k only over the rows whose choice is k,
// so a branch that would fail elsewhere (CAST of text that is not a
// number) is never run on those rows, then puts the pieces back in row
// order. choice < 0 gives NULL.
func evalBranches(ctx context.Context, batch arrow.RecordBatch, t arrow.DataType, branches []Expr, choice []int32) (arrow.Array, error) {
	n := len(choice)
	rows := make([][]int32, len(branches))
	for i, ch := range choice {
		if ch >= 0 {
			rows[ch] = append(rows[ch], int32(i))
		}
	}
	parts := make([]arrow.Array, 0, len(branches))
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	base := make([]int32, len(branches))
	total := int32(0)
	for k, b := range branches {
		base[k] = total
		switch len(rows[k]) {
		case 0:
			continue
		case n:
			// Every row takes this branch: no gather needed.
			return b.Eval(ctx, batch)
		}
		sub, err := takeRows(ctx, batch, rows[k])
		if err != nil {
			return nil, err
		}
		v, err := b.Eval(ctx, sub)
		sub.Release()
		if err != nil {
			return nil, err
		}
		parts = append(parts, v)
		total += int32(v.Len())
	}
	idx := make([]int32, n)
	seen := make([]int32, len(branches))
	for i, ch := range choice {
		if ch < 0 {
			idx[i] = -1
			continue
		}
		idx[i] = base[ch] + seen[ch]
		seen[ch]++
	}
	if len(parts) == 0 {
		return functions.Nulls(t, n), nil
	}
	all := parts[0]
	if len(parts) > 1 {
		var err error
		if all, err = array.Concatenate(parts, memory.DefaultAllocator); err != nil {
			return nil, err
		}
		defer all.Release()
	}
	return functions.Take(ctx, all, idx)
}

// takeRows returns the rows of batch at idx, in order.
func takeRows(ctx context.Context, batch arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, batch.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for j := range cols {
		c, err := functions.Take(ctx, batch.Column(j), idx)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	return array.NewRecordBatch(batch.Schema(), cols, int64(len(idx))), nil
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
