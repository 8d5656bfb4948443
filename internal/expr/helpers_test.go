package expr

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// testBatch holds a few columns of every common type, 4 rows, with NULLs.
//
//	0 i INT        1, 2, NULL, 4
//	1 b BIGINT     10, 20, 30, NULL
//	2 d DOUBLE     1.5, NULL, -2, 0
//	3 s STRING     'apple', 'Banana', NULL, 'cherry pie'
//	4 t TIMESTAMP  2024-01-01 00:00, 2024-06-15 12:30, NULL, 2023-12-31 23:59:59
//	5 ok BOOLEAN   true, false, NULL, true
func testBatch(t *testing.T) arrow.RecordBatch {
	t.Helper()
	cols := []struct {
		name string
		typ  arrow.DataType
		vals []any
	}{
		{"i", types.Int, []any{int32(1), int32(2), nil, int32(4)}},
		{"b", types.BigInt, []any{int64(10), int64(20), int64(30), nil}},
		{"d", types.Double, []any{1.5, nil, -2.0, 0.0}},
		{"s", types.String, []any{"apple", "Banana", nil, "cherry pie"}},
		{"t", types.Timestamp, []any{"2024-01-01 00:00:00", "2024-06-15 12:30:00", nil, "2023-12-31 23:59:59"}},
		{"ok", types.Boolean, []any{true, false, nil, true}},
	}
	var fields []arrow.Field
	var arrs []arrow.Array
	for _, c := range cols {
		fields = append(fields, arrow.Field{Name: c.name, Type: c.typ, Nullable: true})
		arrs = append(arrs, buildArray(t, c.typ, c.vals))
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, 4)
}

func buildArray(t *testing.T, typ arrow.DataType, vals []any) arrow.Array {
	t.Helper()
	b := array.NewBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	for _, v := range vals {
		if err := functions.AppendValue(b, v); err != nil {
			t.Fatal(err)
		}
	}
	return b.NewArray()
}

func col(t *testing.T, batch arrow.RecordBatch, name string) Expr {
	t.Helper()
	for i, f := range batch.Schema().Fields() {
		if f.Name == name {
			return Col(i, name, f.Type)
		}
	}
	t.Fatalf("no column %s", name)
	return nil
}

func lit(t *testing.T, v any, typ arrow.DataType) Expr {
	t.Helper()
	e, err := Lit(v, typ)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func values(arr arrow.Array) []any {
	out := make([]any, arr.Len())
	for i := range out {
		out[i] = types.ValueAt(arr, i)
	}
	return out
}

func evalValues(t *testing.T, e Expr, batch arrow.RecordBatch) []any {
	t.Helper()
	ctx := WithNow(context.Background(), time.Date(2024, 3, 10, 15, 4, 5, 0, time.UTC))
	arr, err := e.Eval(ctx, batch)
	if err != nil {
		t.Fatalf("%s: %v", e, err)
	}
	defer arr.Release()
	if arr.Len() != int(batch.NumRows()) {
		t.Fatalf("%s: got %d rows, want %d", e, arr.Len(), batch.NumRows())
	}
	if !arrow.TypeEqual(arr.DataType(), e.Type()) {
		t.Fatalf("%s: Eval gave %s, Type() says %s", e, arr.DataType(), e.Type())
	}
	return values(arr)
}

func mustCall(t *testing.T, name string, args ...Expr) Expr {
	t.Helper()
	e, err := Call(name, args...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return e
}

func check(t *testing.T, e Expr, batch arrow.RecordBatch, want ...any) {
	t.Helper()
	got := evalValues(t, e, batch)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", e, got, want)
	}
}

func ts(s string) time.Time {
	us, ok := types.ParseTimestamp(s)
	if !ok {
		panic(s)
	}
	return types.FromMicros(us)
}
