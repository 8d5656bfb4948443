package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// rowFn binds a function evaluated row by row on Go values, for functions
// too rarely hot to need a typed kernel. After the casts params ask for,
// f sees STRING as string, integers as int64, DOUBLE as float64, BOOLEAN
// as bool, BINARY as []byte, DATE as int64 days and TIMESTAMP as int64
// microseconds; it returns nil for NULL, or an error that fails the
// query. A row with a NULL argument is NULL without calling f.
func rowFn(fn string, result arrow.DataType, params []param, f func(v []any) (any, error)) Binder {
	return rowFnMode(fn, result, params, false, f)
}

// rowFnNulls is rowFn that also calls f for rows with NULL arguments
// (passed as nil).
func rowFnNulls(fn string, result arrow.DataType, params []param, f func(v []any) (any, error)) Binder {
	return rowFnMode(fn, result, params, true, f)
}

func rowFnMode(fn string, result arrow.DataType, params []param, nullSafe bool, f func(v []any) (any, error)) Binder {
	return func(args []Arg) (*Bound, error) {
		var casts []arrow.DataType
		if len(args) > 0 {
			var err error
			if casts, err = coerceArgs(fn, args, params...); err != nil {
				return nil, err
			}
		}
		return &Bound{Type: result, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			b := array.NewBuilder(mem, result)
			defer b.Release()
			v := make([]any, len(args))
			for i := 0; i < n; i++ {
				hasNull := false
				for j, a := range args {
					v[j] = goValue(a, i)
					hasNull = hasNull || v[j] == nil
				}
				if hasNull && !nullSafe {
					b.AppendNull()
					continue
				}
				out, err := f(v)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", fn, err)
				}
				if err := appendGo(b, out); err != nil {
					return nil, fmt.Errorf("%s: %w", fn, err)
				}
			}
			return b.NewArray(), nil
		}}, nil
	}
}

func goValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.String:
		return a.Value(i)
	}
	return types.ValueAt(a, i)
}

func appendGo(b array.Builder, v any) error {
	switch bb := b.(type) {
	case *array.Date32Builder:
		if x, ok := v.(int64); ok {
			bb.Append(arrow.Date32(x))
			return nil
		}
	case *array.TimestampBuilder:
		if x, ok := v.(int64); ok {
			bb.Append(arrow.Timestamp(x))
			return nil
		}
	}
	return AppendValue(b, v)
}
