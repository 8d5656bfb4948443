package functions

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// pTo accepts anything castable to t, as the casts of a common type.
func pTo(t arrow.DataType) param {
	return param{sqlName(t), func(from arrow.DataType) arrow.DataType {
		if from.ID() == arrow.NULL || CanCast(from, t) {
			return t
		}
		return nil
	}}
}

// nvl2(a, b, c) is b when a is not NULL, else c.
func bindNvl2(args []Arg) (*Bound, error) {
	t, err := CommonType("nvl2", []arrow.DataType{args[1].Type, args[2].Type})
	if err != nil {
		return nil, err
	}
	return rowFnNulls("nvl2", t, ps(pAny, pTo(t)), func(v []any) (any, error) {
		if v[0] != nil {
			return v[1], nil
		}
		return v[2], nil
	})(args)
}

func zeroOf(t arrow.DataType) any {
	switch {
	case types.IsInteger(t):
		return int64(0)
	case t.ID() == arrow.DECIMAL128:
		return decimal128.Num{}
	}
	return 0.0
}

func isZero(v any) bool {
	switch x := v.(type) {
	case int64:
		return x == 0
	case float64:
		return x == 0
	case string: // DECIMAL through ValueAt
		for _, c := range x {
			if c != '0' && c != '.' && c != '-' {
				return false
			}
		}
		return true
	}
	return false
}

func numOrInt(fn string, a Arg) (arrow.DataType, error) {
	t, err := numericArg(fn, a)
	if err != nil {
		return nil, err
	}
	return types.Normalize(t), nil
}

// zeroifnull(x) is x, or 0 when x is NULL.
func bindZeroIfNull(args []Arg) (*Bound, error) {
	t, err := numOrInt("zeroifnull", args[0])
	if err != nil {
		return nil, err
	}
	return rowFnNulls("zeroifnull", t, ps(pTo(t)), func(v []any) (any, error) {
		if v[0] == nil {
			return zeroOf(t), nil
		}
		return v[0], nil
	})(args)
}

// nullifzero(x) is NULL when x is 0, else x.
func bindNullIfZero(args []Arg) (*Bound, error) {
	t, err := numOrInt("nullifzero", args[0])
	if err != nil {
		return nil, err
	}
	return rowFn("nullifzero", t, ps(pTo(t)), func(v []any) (any, error) {
		if isZero(v[0]) {
			return nil, nil
		}
		return v[0], nil
	})(args)
}

// assert_true(cond[, message]) is NULL, or fails the query when cond is
// false or NULL.
var bindAssertTrue = rowFnNulls("assert_true", types.Null, ps(pTo(types.Boolean), pString), func(v []any) (any, error) {
	if v[0] == true {
		return nil, nil
	}
	if len(v) == 2 && v[1] != nil {
		return nil, fmt.Errorf("%s", v[1])
	}
	return nil, fmt.Errorf("assertion is not true")
})

// raise_error(message) fails the query.
var bindRaiseError = rowFnNulls("raise_error", types.Null, ps(pString), func(v []any) (any, error) {
	if v[0] == nil {
		return nil, fmt.Errorf("raise_error with a NULL message")
	}
	return nil, fmt.Errorf("%s", v[0])
})

// uuid is a random version 4 UUID per row.
var bindUUID = rowFn("uuid", types.String, nil, func([]any) (any, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]), nil
})

// rand([seed]) is uniform in [0, 1), randn([seed]) standard normal. A seed
// makes each batch's sequence repeat, not the whole query's.
func bindRand(normal bool) Binder {
	return func(args []Arg) (*Bound, error) {
		var seed uint64
		seeded := false
		if len(args) == 1 {
			v, ok := toInt64(args[0].Value)
			if !args[0].Const || (!ok && args[0].Value != nil) {
				return nil, fmt.Errorf("function rand expects a constant integer seed")
			}
			seed, seeded = uint64(v), true
		}
		return &Bound{Type: types.Double, Eval: func(ctx context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
			r := mrand.New(mrand.NewPCG(mrand.Uint64(), mrand.Uint64()))
			if seeded {
				r = mrand.New(mrand.NewPCG(seed, seed))
			}
			return fixedResult(types.Double, n, nil, func(int) (float64, bool) {
				if normal {
					return r.NormFloat64(), true
				}
				return r.Float64(), true
			}), nil
		}}, nil
	}
}
