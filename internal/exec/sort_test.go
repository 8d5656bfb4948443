package exec

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

func sortInput(t testing.TB) []arrow.RecordBatch {
	// k, s, v(arrival order)
	return []arrow.RecordBatch{
		typedBatch(t, []any{int64(3), nil, int64(1)}, []any{"b", "a", nil}, []any{int64(0), int64(1), int64(2)}),
		typedBatch(t, []any{int64(1), int64(3), nil}, []any{"a", nil, "c"}, []any{int64(3), int64(4), int64(5)}),
	}
}

func TestSort(t *testing.T) {
	k := expr.Col(0, "k", arrow.PrimitiveTypes.Int64)
	s := expr.Col(1, "s", arrow.BinaryTypes.String)
	tests := []struct {
		name string
		keys []SortKey
		want []string // v column
	}{
		{"asc default nulls first", []SortKey{{Expr: k, NullsFirst: true}}, []string{"1", "5", "2", "3", "0", "4"}},
		{"desc default nulls last", []SortKey{{Expr: k, Desc: true}}, []string{"0", "4", "2", "3", "1", "5"}},
		{"asc nulls last", []SortKey{{Expr: k}}, []string{"2", "3", "0", "4", "1", "5"}},
		{"desc nulls first", []SortKey{{Expr: k, Desc: true, NullsFirst: true}}, []string{"1", "5", "0", "4", "2", "3"}},
		{"two keys", []SortKey{{Expr: k, NullsFirst: true}, {Expr: s, Desc: true}}, []string{"5", "1", "3", "2", "0", "4"}},
		{"string", []SortKey{{Expr: s, NullsFirst: true}}, []string{"2", "4", "1", "3", "0", "5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pv, _ := NewProject([]expr.Expr{expr.Col(2, "v", arrow.PrimitiveTypes.Int64)}, []string{"v"})
			in := sortInput(t)
			srt := NewSort(in[0].Schema(), tt.keys)
			eqRows(t, runOps(t, in, srt, pv), tt.want)
			// TopN over the same keys agrees with Sort + Limit.
			for _, lim := range [][2]int64{{2, 0}, {3, 2}, {10, 1}, {0, 0}} {
				want := runOps(t, in, NewSort(in[0].Schema(), tt.keys), NewLimit(in[0].Schema(), lim[0], lim[1]), pv)
				got := runOps(t, in, NewTopN(in[0].Schema(), tt.keys, lim[0], lim[1]), pv)
				eqRows(t, got, want)
			}
		})
	}
	if got := NewSort(nil, []SortKey{{Expr: k, Desc: true}, {Expr: s}}).String(); got != "Sort [k DESC, s NULLS LAST]" {
		t.Fatal(got)
	}
}

func TestSortLarge(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var bs []arrow.RecordBatch
	for b := 0; b < 5; b++ {
		var k, s, v []any
		for i := 0; i < 3000; i++ {
			if r.Intn(20) == 0 {
				k = append(k, nil)
			} else {
				k = append(k, int64(r.Intn(100)))
			}
			s = append(s, fmt.Sprint(r.Intn(50)))
			v = append(v, int64(b*3000+i))
		}
		bs = append(bs, typedBatch(t, k, s, v))
	}
	kc := expr.Col(0, "k", arrow.PrimitiveTypes.Int64)
	keys := []SortKey{{Expr: kc, Desc: true}}
	all := runOps(t, bs, NewSort(bs[0].Schema(), keys))
	if len(all) != 15000 {
		t.Fatal(len(all))
	}
	for _, lim := range [][2]int64{{7, 0}, {100, 5000}, {5000, 10}} {
		got := runOps(t, bs, NewTopN(bs[0].Schema(), keys, lim[0], lim[1]))
		eqRows(t, got, all[lim[1]:lim[1]+lim[0]])
	}
	// One key without NULLs takes the pair-sort fast path; stability.
	k2 := []SortKey{{Expr: expr.Col(2, "v", arrow.PrimitiveTypes.Int64), Desc: true}}
	rev := runOps(t, bs, NewSort(bs[0].Schema(), k2))
	if !strings.HasSuffix(rev[0], ",14999") || !strings.HasSuffix(rev[14999], ",0") {
		t.Fatal(rev[0], rev[14999])
	}
}

func TestSortSnapshot(t *testing.T) {
	in := sortInput(t)
	k := []SortKey{{Expr: expr.Col(0, "k", arrow.PrimitiveTypes.Int64)}}
	ctx := context.Background()
	for _, mk := range []func() interface {
		Operator
		Stateful
	}{
		func() interface {
			Operator
			Stateful
		} {
			return NewSort(in[0].Schema(), k)
		},
		func() interface {
			Operator
			Stateful
		} {
			return NewTopN(in[0].Schema(), k, 4, 1)
		},
	} {
		a := mk()
		if err := a.Process(ctx, in[0], nil); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := a.Snapshot(&buf); err != nil {
			t.Fatal(err)
		}
		b := mk()
		if err := b.Restore(&buf); err != nil {
			t.Fatal(err)
		}
		for _, op := range []Operator{a, b} {
			if err := op.Process(ctx, in[1], nil); err != nil {
				t.Fatal(err)
			}
		}
		ca, cb := NewCollect(), NewCollect()
		if err := a.OnWatermark(ctx, WatermarkEnd, ca); err != nil {
			t.Fatal(err)
		}
		if err := b.OnWatermark(ctx, WatermarkEnd, cb); err != nil {
			t.Fatal(err)
		}
		eqRows(t, rowsOf(cb.Batches()), rowsOf(ca.Batches()))
		if ca.NumRows() == 0 {
			t.Fatal("no rows")
		}
	}
}

// TestSortSnapshotSchemaDrift snapshots batches whose schema differs from
// the operator's only in nullability.
func TestSortSnapshotSchemaDrift(t *testing.T) {
	b := batchOf(t, []string{"x"}, []any{int64(2), int64(1)})
	plan := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: false}}, nil)
	s := NewSort(plan, []SortKey{{Expr: expr.Col(0, "x", arrow.PrimitiveTypes.Int64)}})
	if err := s.Process(context.Background(), b, nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	s2 := NewSort(plan, s.Keys())
	if err := s2.Restore(&buf); err != nil {
		t.Fatal(err)
	}
	out := NewCollect()
	if err := s2.OnWatermark(context.Background(), WatermarkEnd, out); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"1", "2"})
}
