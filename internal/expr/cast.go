package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// CastExpr converts its argument to To. Try gives NULL for values that
// do not convert instead of an error; Implicit marks casts that Call
// inserted (printed as the bare argument).
type CastExpr struct {
	Arg      Expr
	To       arrow.DataType
	Try      bool
	Implicit bool
}

var _ Expr = (*CastExpr)(nil)

// Cast is CAST(e AS to): a value that does not convert is an error at
// Eval ("cannot cast 'abc' to INT").
func Cast(e Expr, to arrow.DataType) (Expr, error) { return newCast(e, to, false) }

// TryCast is TRY_CAST(e AS to): values that do not convert become NULL.
func TryCast(e Expr, to arrow.DataType) (Expr, error) { return newCast(e, to, true) }

func newCast(e Expr, to arrow.DataType, try bool) (Expr, error) {
	if !functions.CanCast(e.Type(), to) {
		return nil, fmt.Errorf("cannot cast %s to %s", typeName(e.Type()), typeName(to))
	}
	return &CastExpr{Arg: e, To: to, Try: try}, nil
}

func typeName(t arrow.DataType) string { return types.SQLName(t) }

// Type is the target type.
func (c *CastExpr) Type() arrow.DataType { return c.To }

// Eval converts the argument.
func (c *CastExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	a, err := c.Arg.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return functions.Cast(ctx, a, c.To, c.Try)
}

// String prints CAST(x AS T), or x alone for an implicit cast.
func (c *CastExpr) String() string {
	if c.Implicit {
		return c.Arg.String()
	}
	kw := "CAST"
	if c.Try {
		kw = "TRY_CAST"
	}
	return kw + "(" + c.Arg.String() + " AS " + types.SQLName(c.To) + ")"
}

// Children is the argument.
func (c *CastExpr) Children() []Expr { return []Expr{c.Arg} }

func (c *CastExpr) withChildren(ch []Expr) Expr {
	cc := *c
	cc.Arg = ch[0]
	return &cc
}
