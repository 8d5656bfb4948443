package functions

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// ppl_mvappend is PPL's mvappend(v, ...): one array of the arguments'
// values in order, an array argument giving its elements; NULL
// arguments are left out and nothing left is NULL. Values of different
// kinds become strings, as in ppl_array.
func bindPPLMvappend(args []Arg) (*Bound, error) {
	elems := make([]Arg, len(args))
	for i, a := range args {
		elems[i] = Arg{Type: a.Type}
		if l, ok := a.Type.(*arrow.ListType); ok {
			elems[i].Type = l.Elem()
		}
	}
	elems = pplStringsIfMixed(elems)
	et, err := CommonType("mvappend", argTypes(elems))
	if err != nil {
		return nil, err
	}
	if et.ID() == arrow.NULL {
		et = types.String
	}
	rt := types.Array(et)
	casts := make([]arrow.DataType, len(args))
	for i, a := range args {
		casts[i] = et
		if _, ok := a.Type.(*arrow.ListType); ok {
			casts[i] = rt
		}
	}
	return &Bound{Type: rt, Casts: casts, Eval: func(ctx context.Context, n int, cols []arrow.Array) (arrow.Array, error) {
		b := array.NewBuilder(mem, rt)
		defer b.Release()
		for i := 0; i < n; i++ {
			var out []any
			for j, c := range cols {
				v := goValue(c, i)
				if v == nil {
					continue
				}
				if _, ok := casts[j].(*arrow.ListType); ok {
					xs, _ := v.([]any)
					out = append(out, xs...)
					continue
				}
				out = append(out, v)
			}
			if out == nil {
				b.AppendNull()
				continue
			}
			if err := appendGo(b, out); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}}, nil
}
