package exec

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

func mustAgg(t testing.TB, name string, args []expr.Expr) *expr.Aggregate {
	t.Helper()
	a, err := expr.NewAggregate(name, args, false)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestHashAggregate(t *testing.T) {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	k := []any{int64(1), int64(2), nil, int64(1), nil, int64(3)}
	s := []any{"a", "b", nil, "a", nil, "c"}
	v := []any{int64(10), int64(20), int64(30), nil, int64(50), int64(60)}
	tests := []struct {
		name    string
		batches [][][]any // per batch: columns k, s, v
		keys    []expr.Expr
		want    []string
		sorted  bool
	}{
		{"int key with nulls", [][][]any{{k, s, v}}, []expr.Expr{expr.Col(0, "k", i64)},
			[]string{"1,2,1,10", "2,1,1,20", "NULL,2,2,80", "3,1,1,60"}, false},
		{"string key", [][][]any{{k, s, v}}, []expr.Expr{expr.Col(1, "s", str)},
			[]string{"a,2,1,10", "b,1,1,20", "NULL,2,2,80", "c,1,1,60"}, false},
		{"two keys", [][][]any{{k, s, v}, {k, s, v}}, []expr.Expr{expr.Col(1, "s", str), expr.Col(0, "k", i64)},
			[]string{"a,1,4,2,20", "b,2,2,2,40", "NULL,NULL,4,4,160", "c,3,2,2,120"}, false},
		{"no keys", [][][]any{{k, s, v}, {k, s, v}}, nil, []string{"12,10,340"}, false},
		{"no keys empty", [][][]any{{{}, {}, {}}}, nil, []string{"0,0,NULL"}, false},
		{"keys empty", [][][]any{{{}, {}, {}}}, []expr.Expr{expr.Col(0, "k", i64)}, nil, false},
		{"many batches", [][][]any{{k, s, v}, {k[:2], s[:2], v[:2]}, {k[2:], s[2:], v[2:]}}, []expr.Expr{expr.Col(0, "k", i64)},
			[]string{"1,4,2,20", "2,2,2,40", "NULL,4,4,160", "3,2,2,120"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bs []arrow.RecordBatch
			for _, b := range tt.batches {
				bs = append(bs, typedBatch(t, b[0], b[1], b[2]))
			}
			aggs := []*expr.Aggregate{
				mustAgg(t, "count", nil),
				mustAgg(t, "count", []expr.Expr{expr.Col(2, "v", i64)}),
				mustAgg(t, "sum", []expr.Expr{expr.Col(2, "v", i64)}),
			}
			names := make([]string, len(tt.keys))
			for i := range names {
				names[i] = fmt.Sprint("k", i)
			}
			h, err := NewHashAggregate(tt.keys, names, aggs)
			if err != nil {
				t.Fatal(err)
			}
			got := runOps(t, bs, h)
			if tt.sorted {
				sort.Strings(got)
			}
			eqRows(t, got, tt.want)
			// A second epoch starts from empty state.
			eqRows(t, runOps(t, bs, h), tt.want)
		})
	}
}

// typedBatch builds (k BIGINT, s STRING, v BIGINT) even when columns are
// empty or all NULL.
func typedBatch(t testing.TB, k, s, v []any) arrow.RecordBatch {
	b := batchOf(t, []string{"k", "s", "v"}, append(k[:len(k):len(k)], int64(0)), append(s[:len(s):len(s)], ""), append(v[:len(v):len(v)], int64(0)))
	defer b.Release()
	return b.NewSlice(0, int64(len(k)))
}

func TestHashAggregateSnapshot(t *testing.T) {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	for _, keys := range [][]expr.Expr{
		nil,
		{expr.Col(0, "k", i64)},
		{expr.Col(1, "s", str)},
		{expr.Col(1, "s", str), expr.Col(0, "k", i64)},
	} {
		t.Run(fmt.Sprint(len(keys)), func(t *testing.T) {
			b1 := typedBatch(t, []any{int64(1), nil, int64(2)}, []any{"x", nil, "y"}, []any{int64(5), int64(6), nil})
			b2 := typedBatch(t, []any{int64(2), int64(3), nil}, []any{"y", "z", nil}, []any{int64(7), int64(8), int64(9)})
			mk := func() *HashAggregate {
				names := make([]string, len(keys))
				for i := range names {
					names[i] = fmt.Sprint("k", i)
				}
				h, err := NewHashAggregate(keys, names, []*expr.Aggregate{
					mustAgg(t, "count", nil), mustAgg(t, "sum", []expr.Expr{expr.Col(2, "v", i64)}),
					mustAgg(t, "max", []expr.Expr{expr.Col(1, "s", str)}),
				})
				if err != nil {
					t.Fatal(err)
				}
				return h
			}
			ctx := context.Background()
			full := mk()
			for _, b := range []arrow.RecordBatch{b1, b2} {
				if err := full.Process(ctx, b, nil); err != nil {
					t.Fatal(err)
				}
			}
			part := mk()
			if err := part.Process(ctx, b1, nil); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := part.Snapshot(&buf); err != nil {
				t.Fatal(err)
			}
			restored := mk()
			if err := restored.Restore(&buf); err != nil {
				t.Fatal(err)
			}
			if err := restored.Process(ctx, b2, nil); err != nil {
				t.Fatal(err)
			}
			want, got := NewCollect(), NewCollect()
			if err := full.EmitAll(ctx, want); err != nil {
				t.Fatal(err)
			}
			if err := restored.EmitAll(ctx, got); err != nil {
				t.Fatal(err)
			}
			eqRows(t, rowsOf(got.Batches()), rowsOf(want.Batches()))
			if len(rowsOf(got.Batches())) == 0 {
				t.Fatal("no rows")
			}
		})
	}
}

func TestHashAggregateExplain(t *testing.T) {
	h, err := NewHashAggregate([]expr.Expr{expr.Col(0, "status", arrow.PrimitiveTypes.Int64)}, []string{"status", "n"},
		[]*expr.Aggregate{mustAgg(t, "count", nil)})
	if err != nil {
		t.Fatal(err)
	}
	if h.String() != "HashAggregate keys=[status] aggs=[count(*)]" {
		t.Fatal(h.String())
	}
	if h.Schema().Field(1).Name != "n" {
		t.Fatal(h.Schema())
	}
	if _, err := NewHashAggregate(nil, []string{"a", "b"}, nil); err == nil {
		t.Fatal("want names error")
	}
}
