package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// CommonType widens argument types to one (NULL to anything, INT to
// BIGINT to DECIMAL to DOUBLE, DATE to TIMESTAMP); a STRING mixed with
// a number or time is cast to the other type.
func CommonType(fn string, ts []arrow.DataType) (arrow.DataType, error) {
	var t arrow.DataType = types.Null
	for _, x := range ts {
		c, ok := types.Common(t, x)
		if !ok {
			if ct, err := ComparisonType(fn, t, x); err == nil {
				c, ok = ct, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("function %s cannot combine %s and %s", fn, sqlName(t), sqlName(x))
		}
		t = c
	}
	return t, nil
}

func argTypes(args []Arg) []arrow.DataType {
	out := make([]arrow.DataType, len(args))
	for i, a := range args {
		out[i] = a.Type
	}
	return out
}

// coalesce(a, b, ...): the first non-NULL argument. ifnull and nvl are
// two-argument aliases.
func bindCoalesce(args []Arg) (*Bound, error) {
	t, err := CommonType("coalesce", argTypes(args))
	if err != nil {
		return nil, err
	}
	return &Bound{Type: t, Casts: repeatType(t, len(args)), Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		choice := make([]int32, n)
		r := newRows(n, args)
	rows:
		for i := range choice {
			for j := range args {
				if !r.null(j, i) {
					choice[i] = int32(j)
					continue rows
				}
			}
			choice[i] = -1
		}
		return Pick(ctx, t, n, args, choice)
	}}, nil
}

func repeatType(t arrow.DataType, n int) []arrow.DataType {
	out := make([]arrow.DataType, n)
	for i := range out {
		out[i] = t
	}
	return out
}

// if(cond, a, b): a where cond is TRUE, else b (NULL cond picks b).
func bindIf(args []Arg) (*Bound, error) {
	if err := asBool(args[0].Type, "function if"); err != nil {
		return nil, err
	}
	t, err := CommonType("if", argTypes(args[1:]))
	if err != nil {
		return nil, err
	}
	return &Bound{Type: t, Casts: []arrow.DataType{types.Boolean, t, t}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		c := args[0].(*array.Boolean)
		choice := make([]int32, n)
		for i := range choice {
			if !c.IsValid(i) || !c.Value(i) {
				choice[i] = 1
			}
		}
		return Pick(ctx, t, n, args[1:], choice)
	}}, nil
}

// nullif(a, b): NULL where a = b, else a.
func bindNullif(args []Arg) (*Bound, error) {
	t, err := ComparisonType("nullif", args[0].Type, args[1].Type)
	if err != nil {
		return nil, err
	}
	eq, err := compareKernel("=", t)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: t, Casts: []arrow.DataType{t, t}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		m, err := eq(ctx, n, args)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		b := m.(*array.Boolean)
		choice := make([]int32, n)
		for i := range choice {
			if b.IsValid(i) && b.Value(i) {
				choice[i] = -1
			}
		}
		return Pick(ctx, t, n, args[:1], choice)
	}}, nil
}

// greatest/least(a, b, ...) skip NULLs; NULL only when all are NULL.
func bindGreatest(greatest bool) Binder {
	fn, op := "least", "<"
	if greatest {
		fn, op = "greatest", ">"
	}
	return func(args []Arg) (*Bound, error) {
		t, err := CommonType(fn, argTypes(args))
		if err != nil {
			return nil, err
		}
		if t.ID() == arrow.NULL {
			return &Bound{Type: t, Eval: nullKernel(t)}, nil
		}
		cmp, err := compareKernel(op, t)
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", fn, err)
		}
		return &Bound{Type: t, Casts: repeatType(t, len(args)), Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			best := args[0]
			best.Retain()
			for _, next := range args[1:] {
				m, err := cmp(ctx, n, []arrow.Array{next, best})
				if err != nil {
					best.Release()
					return nil, err
				}
				b := m.(*array.Boolean)
				choice := make([]int32, n)
				for i := range choice {
					switch {
					case next.IsNull(i):
						choice[i] = 0
					case best.IsNull(i) || b.Value(i) && b.IsValid(i):
						choice[i] = 1
					}
				}
				nb, err := Pick(ctx, t, n, []arrow.Array{best, next}, choice)
				m.Release()
				best.Release()
				if err != nil {
					return nil, err
				}
				best = nb
			}
			return best, nil
		}}, nil
	}
}
