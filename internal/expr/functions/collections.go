package functions

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// size(array|map) -> INT; NULL for NULL input (Spark's legacy -1 is not
// kept: NULL is what the rest of SQL does).
func bindSize(args []Arg) (*Bound, error) {
	t := types.Normalize(args[0].Type)
	if t.ID() != arrow.LIST && t.ID() != arrow.MAP && t.ID() != arrow.NULL {
		return nil, fmt.Errorf("function size expects an ARRAY or MAP, got %s", sqlName(t))
	}
	return &Bound{Type: types.Int, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		l, ok := args[0].(array.ListLike)
		if !ok {
			return nullArray(types.Int, n), nil
		}
		return fixedResult(types.Int, n, args, func(i int) (int32, bool) {
			s, e := l.ValueOffsets(i)
			return int32(e - s), true
		}), nil
	}}, nil
}

// element_at(array, i) (1-based, negative from the end) and
// element_at(map, key).
func bindElementAt(args []Arg) (*Bound, error) { return bindElementAtMode(args, false, true) }

// array_contains(array, value) -> BOOLEAN: NULL when the array is NULL,
// or when there is no match and the array holds a NULL.
func bindArrayContains(args []Arg) (*Bound, error) {
	lt, ok := types.Normalize(args[0].Type).(*arrow.ListType)
	if !ok {
		return nil, fmt.Errorf("function array_contains expects an ARRAY, got %s", sqlName(args[0].Type))
	}
	et, err := ComparisonType("array_contains", lt.Elem(), args[1].Type)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: types.Boolean, Casts: []arrow.DataType{types.Array(et), et}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		l := args[0].(*array.List)
		vals := l.ListValues()
		x := args[1]
		return boolResult(n, args, func(i int) (bool, bool) {
			want := ScalarValue(x, i)
			s, e := l.ValueOffsets(i)
			sawNull := false
			for j := s; j < e; j++ {
				if vals.IsNull(int(j)) {
					sawNull = true
					continue
				}
				if sameValue(ScalarValue(vals, int(j)), want) {
					return true, true
				}
			}
			return false, !sawNull
		}), nil
	}}, nil
}

// map_keys(map) -> ARRAY<STRING>, map_values(map) -> ARRAY<V>.
func bindMapPart(keys bool) Binder {
	return func(args []Arg) (*Bound, error) {
		mt, ok := types.Normalize(args[0].Type).(*arrow.MapType)
		if !ok {
			return nil, fmt.Errorf("function map_%s expects a MAP, got %s", map[bool]string{true: "keys", false: "values"}[keys], sqlName(args[0].Type))
		}
		et := mt.ItemType()
		if keys {
			et = mt.KeyType()
		}
		rt := types.Array(et)
		return &Bound{Type: rt, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			m := args[0].(*array.Map)
			child := m.Items()
			if keys {
				child = m.Keys()
			}
			d := m.Data()
			// A map is a list of entries: reuse its offsets over one child.
			nd := array.NewData(rt, d.Len(), d.Buffers(), []arrow.ArrayData{child.Data()}, d.NullN(), d.Offset())
			defer nd.Release()
			return array.MakeFromData(nd), nil
		}}, nil
	}
}

// array(a, b, ...) -> ARRAY of the common type.
func bindArray(args []Arg) (*Bound, error) {
	t, err := CommonType("array", argTypes(args))
	if err != nil {
		return nil, err
	}
	if t.ID() == arrow.NULL {
		t = types.String
	}
	rt := types.Array(t)
	return &Bound{Type: rt, Casts: repeatType(t, len(args)), Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		// Interleave: element j of row i is row i of argument j.
		idx := make([]int32, n*len(args))
		for i := 0; i < n; i++ {
			for j := range args {
				idx[i*len(args)+j] = int32(j*n + i)
			}
		}
		var all arrow.Array
		if len(args) == 0 {
			all = nullArray(t, 0)
		} else {
			var err error
			if all, err = array.Concatenate(args, mem); err != nil {
				return nil, err
			}
		}
		defer all.Release()
		vals, err := take(ctx, all, idx)
		if err != nil {
			return nil, err
		}
		defer vals.Release()
		offs := make([]int32, n+1)
		for i := range offs {
			offs[i] = int32(i * len(args))
		}
		d := array.NewData(rt, n, []*memory.Buffer{nil, bufferOf(arrow.GetBytes(offs))}, []arrow.ArrayData{vals.Data()}, 0, 0)
		defer d.Release()
		return array.MakeFromData(d), nil
	}}, nil
}

// struct(a, b) names fields col1, col2 (or after column arguments'
// names, which the binder may pass as named_struct instead);
// named_struct('name', value, ...) takes constant names.
func bindStruct(named bool) Binder {
	return func(args []Arg) (*Bound, error) {
		var fields []arrow.Field
		var casts []arrow.DataType
		if named {
			if len(args)%2 != 0 {
				return nil, fmt.Errorf("function named_struct expects name, value pairs, got %d arguments", len(args))
			}
			for i := 0; i < len(args); i += 2 {
				name, ok := constString(args[i])
				if !ok {
					return nil, fmt.Errorf("function named_struct expects constant STRING names, argument %d is not", i+1)
				}
				fields = append(fields, arrow.Field{Name: name, Type: fieldType(args[i+1].Type), Nullable: true})
				casts = append(casts, nil, fieldType(args[i+1].Type))
			}
		} else {
			for i, a := range args {
				fields = append(fields, arrow.Field{Name: fmt.Sprintf("col%d", i+1), Type: fieldType(a.Type), Nullable: true})
				casts = append(casts, fieldType(a.Type))
			}
		}
		rt := arrow.StructOf(fields...)
		return &Bound{Type: rt, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			kids := make([]arrow.ArrayData, 0, len(fields))
			for i, a := range args {
				if named && i%2 == 0 {
					continue
				}
				kids = append(kids, a.Data())
			}
			d := array.NewData(rt, n, []*memory.Buffer{nil}, kids, 0, 0)
			defer d.Release()
			return array.MakeFromData(d), nil
		}}, nil
	}
}

// fieldType keeps NULL-typed struct fields usable by giving them STRING.
func fieldType(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.NULL {
		return types.String
	}
	return types.Normalize(t)
}

// ExplodeType is the row type explode(x) produces: the element type of
// an ARRAY, or STRUCT<key, value> of a MAP.
func ExplodeType(t arrow.DataType) (arrow.DataType, error) {
	switch tt := types.Normalize(t).(type) {
	case *arrow.ListType:
		return tt.Elem(), nil
	case *arrow.MapType:
		return types.Struct(arrow.Field{Name: "key", Type: tt.KeyType()}, arrow.Field{Name: "value", Type: tt.ItemType()}), nil
	}
	return nil, fmt.Errorf("explode expects an ARRAY or MAP, got %s", sqlName(t))
}

// typeof(x) -> the SQL type name as STRING.
// bindTypeof is Spark's typeof: the catalog string (bigint,
// struct<a:int>).
func bindTypeof(args []Arg) (*Bound, error) { return typeName(types.CatalogString(args[0].Type)) }

// bindPPLTypeof is PPL's typeof, OpenSearch's names: upper case, a
// nested type by its kind alone (STRUCT, ARRAY, MAP).
func bindPPLTypeof(args []Arg) (*Bound, error) {
	name, _, _ := strings.Cut(sqlName(args[0].Type), "<")
	return typeName(name)
}

// typeName is a constant STRING column of name.
func typeName(name string) (*Bound, error) {
	return &Bound{Type: types.String, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for i := 0; i < n; i++ {
			b.Append(name)
		}
		return b.NewArray(), nil
	}}, nil
}
