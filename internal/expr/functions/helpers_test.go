package functions_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// fixedNow is what now() returns in these tests.
var fixedNow = time.Date(2024, 3, 10, 15, 4, 5, 0, time.UTC)

// one is a batch of one row and no columns, for constant arguments.
var one = array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)

func L(v any, t arrow.DataType) expr.Expr { return expr.MustLit(v, t) }
func S(s string) expr.Expr                { return L(s, types.String) }
func I(i int64) expr.Expr                 { return L(i, types.BigInt) }
func F(f float64) expr.Expr               { return L(f, types.Double) }
func Null() expr.Expr                     { return L(nil, types.Null) }
func TS(s string) expr.Expr               { return L(s, types.Timestamp) }

// column builds a one-column batch and a reference to its column.
func column(t *testing.T, typ arrow.DataType, vals ...any) (expr.Expr, arrow.RecordBatch) {
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
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: typ, Nullable: true}}, nil)
	return expr.Col(0, "c", typ), array.NewRecordBatch(schema, []arrow.Array{arr}, int64(len(vals)))
}

// call evaluates name(args) over batch and returns the Go values.
func call(t *testing.T, batch arrow.RecordBatch, name string, args ...expr.Expr) ([]any, arrow.DataType, error) {
	t.Helper()
	e, err := expr.Call(name, args...)
	if err != nil {
		return nil, nil, err
	}
	ctx := expr.WithNow(context.Background(), fixedNow)
	arr, err := e.Eval(ctx, batch)
	if err != nil {
		return nil, nil, err
	}
	defer arr.Release()
	if !arrow.TypeEqual(arr.DataType(), e.Type()) {
		t.Fatalf("%s: Eval gave %s, Type() says %s", e, arr.DataType(), e.Type())
	}
	if arr.Len() != int(batch.NumRows()) {
		t.Fatalf("%s: %d rows, want %d", e, arr.Len(), batch.NumRows())
	}
	out := make([]any, arr.Len())
	for i := range out {
		out[i] = types.ValueAt(arr, i)
	}
	return out, e.Type(), nil
}

// scalarCase is one constant call and its expected value (or error).
type scalarCase struct {
	name string
	args []expr.Expr
	want any
	err  string // substring of the expected error
}

func runScalar(t *testing.T, cases []scalarCase) {
	t.Helper()
	for _, tc := range cases {
		got, _, err := call(t, one, tc.name, tc.args...)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s%v: error %v, want %q", tc.name, tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s%v: %v", tc.name, tc.args, err)
			continue
		}
		if !reflect.DeepEqual(got[0], tc.want) {
			t.Errorf("%s%v = %#v, want %#v", tc.name, tc.args, got[0], tc.want)
		}
	}
}

func eq(a, b any) bool { return reflect.DeepEqual(a, b) }
