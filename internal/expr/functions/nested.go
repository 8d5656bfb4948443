package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// StructField returns field idx of every struct in s, NULL where the
// struct itself is NULL.
func StructField(ctx context.Context, s *array.Struct, idx int) (arrow.Array, error) {
	f := s.Field(idx)
	if s.NullN() == 0 {
		f.Retain()
		return f, nil
	}
	n := s.Len()
	choice := make([]int32, n)
	for i := range choice {
		if s.IsNull(i) {
			choice[i] = -1
		}
	}
	return Pick(ctx, f.DataType(), n, []arrow.Array{f}, choice)
}

// BindElementAt resolves element_at(container, key) and container[key]:
// ARRAY elements by 1-based index (negative counts from the end; out of
// range or 0 gives NULL), MAP values by key (absent gives NULL). With
// zeroBased, array index 0 is the first element.
func BindElementAt(args []Arg, zeroBased bool) (*Bound, error) {
	return bindElementAtMode(args, zeroBased, false)
}

// errIndexZero is Spark's INVALID_INDEX_OF_ZERO: element_at and
// try_element_at count from 1 (or from -1 at the end), so 0 names no
// element and is an error in both, even outside ANSI mode.
var errIndexZero = fmt.Errorf("[INVALID_INDEX_OF_ZERO] the index 0 is invalid: an index shall be either < 0 or > 0 (the first element has index 1)")

// bindElementAtMode is BindElementAt; with zeroErr an array index of 0
// fails the query (element_at, try_element_at) instead of giving NULL.
func bindElementAtMode(args []Arg, zeroBased, zeroErr bool) (*Bound, error) {
	ct := types.Normalize(args[0].Type)
	switch t := ct.(type) {
	case *arrow.ListType:
		if !types.IsInteger(args[1].Type) && args[1].Type.ID() != arrow.NULL {
			return nil, fmt.Errorf("array index must be an integer, got %s", sqlName(args[1].Type))
		}
		return &Bound{Type: t.Elem(), Casts: []arrow.DataType{nil, types.BigInt}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			l, ok := args[0].(*array.List)
			if !ok {
				return nullArray(t.Elem(), n), nil
			}
			ix := i64s(args[1])
			vl, vi := validBytes(l), validBytes(args[1])
			idx := make([]int32, n)
			for i := 0; i < n; i++ {
				idx[i] = -1
				if !isValid(vl, i) || !isValid(vi, i) {
					continue
				}
				start, end := l.ValueOffsets(i)
				k := ix[i]
				if k == 0 && zeroErr {
					return nil, errIndexZero
				}
				if zeroBased {
					k++
				}
				switch {
				case k > 0 && k <= end-start:
					idx[i] = int32(start + k - 1)
				case k < 0 && -k <= end-start:
					idx[i] = int32(end + k)
				}
			}
			return take(ctx, l.ListValues(), idx)
		}}, nil
	case *arrow.MapType:
		if !types.IsString(t.KeyType()) {
			return nil, fmt.Errorf("map keys must be STRING, got %s", sqlName(t.KeyType()))
		}
		return &Bound{Type: t.ItemType(), Casts: []arrow.DataType{nil, types.String}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			m := args[0].(*array.Map)
			keys, ok := m.Keys().(*array.String)
			if !ok {
				return nil, fmt.Errorf("map keys must be STRING, got %s", m.Keys().DataType())
			}
			k := args[1].(*array.String)
			vm, vk := validBytes(m), validBytes(k)
			idx := make([]int32, n)
			for i := 0; i < n; i++ {
				idx[i] = -1
				if !isValid(vm, i) || !isValid(vk, i) {
					continue
				}
				want := k.Value(i)
				start, end := m.ValueOffsets(i)
				for j := start; j < end; j++ {
					if keys.IsValid(int(j)) && keys.Value(int(j)) == want {
						idx[i] = int32(j)
					}
				}
			}
			return take(ctx, m.Items(), idx)
		}}, nil
	case *arrow.NullType:
		return &Bound{Type: types.Null, Eval: nullKernel(types.Null)}, nil
	}
	return nil, fmt.Errorf("cannot subscript %s: not an ARRAY or MAP", sqlName(ct))
}
