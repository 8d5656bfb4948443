package exec

import (
	"bytes"
	"context"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

func TestHashJoin(t *testing.T) {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	probe := []arrow.RecordBatch{
		typedBatch(t, []any{int64(1), int64(2), nil}, []any{"a", "b", "c"}, []any{int64(10), int64(20), int64(30)}),
		typedBatch(t, []any{int64(4), int64(1)}, []any{"d", "a"}, []any{int64(40), int64(50)}),
	}
	build := []arrow.RecordBatch{
		batchOf(t, []string{"bk", "bs"}, []any{int64(1), int64(1), nil, int64(3)}, []any{"x", "y", "n", "z"}),
	}
	pk := []expr.Expr{expr.Col(0, "k", i64)}
	bk := []expr.Expr{expr.Col(0, "bk", i64)}
	// residual: v > 15 on the joined row (v is column 2).
	res := tcmp{2, 15}
	tests := []struct {
		name     string
		kind     JoinKind
		pk, bk   []expr.Expr
		residual expr.Expr
		want     []string
	}{
		{"inner", InnerJoin, pk, bk, nil, []string{"1,a,10,1,x", "1,a,10,1,y", "1,a,50,1,x", "1,a,50,1,y"}},
		{"left", LeftJoin, pk, bk, nil, []string{"1,a,10,1,x", "1,a,10,1,y", "2,b,20,NULL,NULL", "NULL,c,30,NULL,NULL",
			"4,d,40,NULL,NULL", "1,a,50,1,x", "1,a,50,1,y"}},
		{"right", RightJoin, pk, bk, nil, []string{"1,a,10,1,x", "1,a,10,1,y", "1,a,50,1,x", "1,a,50,1,y",
			"NULL,NULL,NULL,NULL,n", "NULL,NULL,NULL,3,z"}},
		{"full", FullJoin, pk, bk, nil, []string{"1,a,10,1,x", "1,a,10,1,y", "2,b,20,NULL,NULL", "NULL,c,30,NULL,NULL",
			"4,d,40,NULL,NULL", "1,a,50,1,x", "1,a,50,1,y", "NULL,NULL,NULL,NULL,n", "NULL,NULL,NULL,3,z"}},
		{"semi", SemiJoin, pk, bk, nil, []string{"1,a,10", "1,a,50"}},
		{"anti", AntiJoin, pk, bk, nil, []string{"2,b,20", "NULL,c,30", "4,d,40"}},
		{"inner residual", InnerJoin, pk, bk, res, []string{"1,a,50,1,x", "1,a,50,1,y"}},
		{"left residual", LeftJoin, pk, bk, res, []string{"1,a,10,NULL,NULL", "2,b,20,NULL,NULL", "NULL,c,30,NULL,NULL",
			"1,a,50,1,x", "1,a,50,1,y", "4,d,40,NULL,NULL"}},
		{"right residual", RightJoin, pk, bk, res, []string{"1,a,50,1,x", "1,a,50,1,y", "NULL,NULL,NULL,NULL,n", "NULL,NULL,NULL,3,z"}},
		{"semi residual", SemiJoin, pk, bk, res, []string{"1,a,50"}},
		{"anti residual", AntiJoin, pk, bk, res, []string{"1,a,10", "2,b,20", "NULL,c,30", "4,d,40"}},
		{"string key", InnerJoin, []expr.Expr{expr.Col(1, "s", str)}, []expr.Expr{expr.Col(1, "bs", str)}, nil, nil},
		{"two keys", InnerJoin, []expr.Expr{expr.Col(0, "k", i64), expr.Col(1, "s", str)},
			[]expr.Expr{expr.Col(0, "bk", i64), expr.Col(1, "bs", str)}, nil, nil},
		{"cross residual", InnerJoin, nil, nil, tcmp{2, 45}, []string{"1,a,50,1,x", "1,a,50,1,y", "1,a,50,NULL,n", "1,a,50,3,z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := NewHashJoin(context.Background(), tt.kind, probe[0].Schema(), build[0].Schema(), build, tt.pk, tt.bk, tt.residual)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Release()
			got := runOps(t, probe, j)
			eqRows(t, got, tt.want)
		})
	}
}

func TestHashJoinMultiKeyAndNulls(t *testing.T) {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	probe := []arrow.RecordBatch{typedBatch(t, []any{int64(1), int64(1), nil, int64(2)}, []any{"x", nil, "n", "q"}, []any{int64(1), int64(2), int64(3), int64(4)})}
	build := []arrow.RecordBatch{batchOf(t, []string{"bk", "bs"}, []any{int64(1), int64(1), nil, int64(2)}, []any{"x", nil, "n", "q"})}
	j, err := NewHashJoin(context.Background(), InnerJoin, probe[0].Schema(), build[0].Schema(), build,
		[]expr.Expr{expr.Col(0, "k", i64), expr.Col(1, "s", str)}, []expr.Expr{expr.Col(0, "bk", i64), expr.Col(1, "bs", str)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := runOps(t, probe, j)
	sort.Strings(got)
	eqRows(t, got, []string{"1,x,1,1,x", "2,q,4,2,q"})
	if j.String() != "HashJoin Inner on=[k = bk, s = bs] build=4 rows" {
		t.Fatal(j.String())
	}
	if _, err := NewHashJoin(context.Background(), InnerJoin, probe[0].Schema(), build[0].Schema(), build,
		[]expr.Expr{expr.Col(1, "s", str)}, []expr.Expr{expr.Col(0, "bk", i64)}, nil); err == nil {
		t.Fatal("want key type error")
	}
}

func TestHashJoinSnapshot(t *testing.T) {
	i64 := arrow.PrimitiveTypes.Int64
	ctx := context.Background()
	p1 := typedBatch(t, []any{int64(1)}, []any{"a"}, []any{int64(1)})
	p2 := typedBatch(t, []any{int64(2)}, []any{"b"}, []any{int64(2)})
	build := []arrow.RecordBatch{batchOf(t, []string{"bk"}, []any{int64(1), int64(2), int64(3)})}
	mk := func() *HashJoin {
		j, err := NewHashJoin(ctx, RightJoin, p1.Schema(), build[0].Schema(), build,
			[]expr.Expr{expr.Col(0, "k", i64)}, []expr.Expr{expr.Col(0, "bk", i64)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	a := mk()
	if err := a.Process(ctx, p1, NewCollect()); err != nil {
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
	out := NewCollect()
	if err := b.Process(ctx, p2, out); err != nil {
		t.Fatal(err)
	}
	if err := b.OnWatermark(ctx, WatermarkEnd, out); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"2,b,2,2", "NULL,NULL,NULL,3"})
}

func TestHashJoinExplain(t *testing.T) {
	i64 := arrow.PrimitiveTypes.Int64
	ctx := context.Background()
	a, b, c := seqTable(t, 2, 1), seqTable(t, 3, 1), seqTable(t, 4, 1)
	k := []expr.Expr{expr.Col(0, "x", i64)}
	j1, err := NewHashJoin(ctx, InnerJoin, a.Schema(), b.Schema(), nil, k, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	j1.SetBuildPlan(&Stage{Scan: scanOf(t, b, 1)})
	j2, err := NewHashJoin(ctx, LeftJoin, j1.Schema(), c.Schema(), nil, k, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	j2.SetBuildPlan(&Stage{Scan: scanOf(t, c, 1), Ops: []Operator{NewLimit(c.Schema(), 1, 0)}})
	st := &Stage{Scan: scanOf(t, a, 1), Ops: []Operator{j1, j2, NewLimit(j2.Schema(), 5, 0)}}
	want := `Limit 5
  HashJoin Left on=[x = x]
    HashJoin Inner on=[x = x]
      Scan memory batches=2 rows=2
      Scan memory batches=3 rows=3
    Limit 1
      Scan memory batches=4 rows=4`
	if got := Explain(st); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
