package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

// TestEndToEnd runs the package example with the real expressions:
// SELECT s, count(*) AS n FROM t WHERE v > 100 GROUP BY s ORDER BY n DESC, s LIMIT 3.
func TestEndToEnd(t *testing.T) {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	var bs []arrow.RecordBatch
	for b := 0; b < 20; b++ {
		var k, s, v []any
		for i := 0; i < 50; i++ {
			row := b*50 + i
			k = append(k, int64(row))
			s = append(s, fmt.Sprint("g", row%7))
			v = append(v, int64(row%13*20))
		}
		bs = append(bs, typedBatch(t, k, s, v))
	}
	src := memtable.New(bs[0].Schema(), bs)
	lit, err := expr.Lit(int64(100), i64)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := expr.Call(">", expr.Col(2, "v", i64), lit)
	if err != nil {
		t.Fatal(err)
	}
	sc := scanOf(t, src, 3)
	sc.Local = func() ([]Operator, error) {
		f, err := NewFilter(src.Schema(), pred)
		return []Operator{f}, err
	}
	agg, err := NewHashAggregate([]expr.Expr{expr.Col(1, "s", str)}, []string{"s", "n"}, []*expr.Aggregate{mustAgg(t, "count", nil)})
	if err != nil {
		t.Fatal(err)
	}
	keys := []SortKey{{Expr: expr.Col(1, "n", i64), Desc: true}, {Expr: expr.Col(0, "s", str), NullsFirst: true}}
	st := &Stage{Scan: sc, Ops: []Operator{agg, NewTopN(agg.Schema(), keys, 3, 0)}}
	out := NewCollect()
	if err := Run(context.Background(), st, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	// Reference: the same query computed in Go.
	counts := map[string]int{}
	for row := 0; row < 1000; row++ {
		if row%13*20 > 100 {
			counts[fmt.Sprint("g", row%7)]++
		}
	}
	got := rowsOf(out.Batches())
	if len(got) != 3 {
		t.Fatalf("got %v", got)
	}
	prev := 1 << 30
	for _, r := range got {
		var g string
		var n int
		if _, err := fmt.Sscanf(r, "g%s", &g); err != nil {
			t.Fatal(err)
		}
		fmt.Sscanf(r[3:], "%d", &n)
		if counts[r[:2]] != n || n > prev {
			t.Fatalf("row %s: want count %d (%v)", r, counts[r[:2]], got)
		}
		prev = n
	}
	want := "TopN 3 [n DESC, s]\n  HashAggregate keys=[s] aggs=[count(*)]\n    Filter (v > 100)\n      Scan memory batches=20 rows=1000 parallelism=3"
	if e := Explain(st); e != want {
		t.Fatalf("explain:\n%s\nwant\n%s", e, want)
	}
}
