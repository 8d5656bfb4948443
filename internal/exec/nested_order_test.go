package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

func oneColBatch(t *testing.T, typ arrow.DataType, vals ...any) arrow.RecordBatch {
	t.Helper()
	b := array.NewBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	for _, v := range vals {
		if err := functions.AppendValue(b, v); err != nil {
			t.Fatal(err)
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: typ, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(len(vals)))
}

// ORDER BY on arrays and structs orders element by element, as Spark
// does, never by printed text (which put [10] before [9]).
func TestSortNestedElementwise(t *testing.T) {
	list := arrow.ListOf(types.BigInt)
	st := types.Struct(arrow.Field{Name: "x", Type: types.BigInt, Nullable: true}, arrow.Field{Name: "y", Type: types.String, Nullable: true})
	for _, c := range []struct {
		name string
		typ  arrow.DataType
		vals []any
		desc bool
		want []int32
	}{
		// rows: [9] [10] [9,1] [] NULL [NULL] [NULL,1]
		{"array asc", list, []any{[]any{int64(9)}, []any{int64(10)}, []any{int64(9), int64(1)}, []any{}, nil, []any{nil}, []any{nil, int64(1)}}, false,
			[]int32{4, 3, 5, 6, 0, 2, 1}},
		{"array desc", list, []any{[]any{int64(9)}, []any{int64(10)}, []any{int64(9), int64(1)}, []any{}, nil}, true,
			[]int32{1, 2, 0, 3, 4}},
		// rows: {10,a} {9,b} {9,NULL} NULL {9,a}
		{"struct asc", st, []any{map[string]any{"x": int64(10), "y": "a"}, map[string]any{"x": int64(9), "y": "b"}, map[string]any{"x": int64(9), "y": nil}, nil, map[string]any{"x": int64(9), "y": "a"}}, false,
			[]int32{3, 2, 4, 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := oneColBatch(t, c.typ, c.vals...)
			defer b.Release()
			keys := []SortKey{{Expr: expr.Col(0, "a", c.typ), Desc: c.desc, NullsFirst: DefaultNullsFirst(c.desc)}}
			idx, err := sortedIndices(context.Background(), keys, b)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fmt.Sprint(idx), fmt.Sprint(c.want); got != want {
				t.Errorf("order %s, want %s", got, want)
			}
		})
	}
}

// Maps have no order: sorting by one is an error, even over one row.
func TestSortByMapFails(t *testing.T) {
	mt := arrow.MapOf(types.String, types.BigInt)
	b := oneColBatch(t, mt, map[string]any{"a": int64(1)})
	defer b.Release()
	_, err := sortedIndices(context.Background(), []SortKey{{Expr: expr.Col(0, "m", mt)}}, b)
	if err == nil || !strings.Contains(err.Error(), "has no order") {
		t.Fatalf("got %v, want a no-order error", err)
	}
}
