package exec

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

// Workers fold partials, hand them over at maxPartialGroups and, when
// groups barely repeat, go on sending rows: the result and its group
// order stay those of ordered delivery.
func TestPartialsGiveTheOrderedResult(t *testing.T) {
	for _, mod := range []int{7, 3 * maxPartialGroups, 1 << 30} {
		src := keyedTable(t, 24, 4000, mod)
		want := runAgg(t, src, exactAggregate(t, true), false, false)
		got := runAgg(t, src, exactAggregate(t, true), true, true)
		if !slices.Equal(got, want) {
			t.Fatalf("mod %d: partials gave %d groups\n%v\nwant (ordered) %d\n%v", mod, len(got), head(got), len(want), head(want))
		}
	}
}

func TestMergePartialKeepsFirstPositions(t *testing.T) {
	agg := exactAggregate(t, true)
	late, err := agg.NewPartial()
	if err != nil {
		t.Fatal(err)
	}
	early, _ := agg.NewPartial()
	b1 := batchOf(t, []string{"k", "v"}, ints(int64(2), int64(1)), ints(int64(10), int64(20)))
	b2 := batchOf(t, []string{"k", "v"}, ints(int64(1), int64(3)), ints(int64(30), int64(40)))
	defer b1.Release()
	defer b2.Release()
	if err := late.ProcessAt(t.Context(), b1, Pos(1)<<PosSplitShift); err != nil {
		t.Fatal(err)
	}
	if err := early.ProcessAt(t.Context(), b2, 0); err != nil {
		t.Fatal(err)
	}
	// The later split's partial is merged first.
	if err := agg.MergePartial(t.Context(), late); err != nil {
		t.Fatal(err)
	}
	if err := agg.MergePartial(t.Context(), early); err != nil {
		t.Fatal(err)
	}
	out := NewCollect()
	if err := agg.OnWatermark(t.Context(), WatermarkEnd, out); err != nil {
		t.Fatal(err)
	}
	got := rowsOf(out.Batches())
	want := []string{"1,2,50,20,30,25", "3,1,40,40,40,40", "2,1,10,10,10,10"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v (groups in input order: split 0 first)", got, want)
	}
}

// An aggregate failing in a worker's partial fails the query as it does
// in the stage: "processing split", not "reading split".
func TestPartialErrorIsTheOperators(t *testing.T) {
	var bs []arrow.RecordBatch
	for i := 0; i < 4; i++ {
		bs = append(bs, batchOf(t, []string{"k", "v"}, ints(int64(1), int64(1)), ints(int64(math.MaxInt64), int64(1))))
	}
	src := memtable.New(bs[0].Schema(), bs)
	sc := scanOf(t, src, 2)
	sc.Unordered = true
	sum, err := expr.NewAggregate("sum", []expr.Expr{tcol{1, arrow.PrimitiveTypes.Int64}}, false)
	if err != nil {
		t.Fatal(err)
	}
	agg, err := NewHashAggregate([]expr.Expr{tcol{0, arrow.PrimitiveTypes.Int64}}, []string{"k", "s"}, []*expr.Aggregate{sum})
	if err != nil {
		t.Fatal(err)
	}
	err = Run(t.Context(), &Stage{Scan: sc, Ops: []Operator{agg}}, WatermarkEnd, NewCollect(), nil)
	if err == nil || !strings.Contains(err.Error(), "processing split") || !strings.Contains(err.Error(), "overflow") {
		t.Fatalf("err %v, want the overflow as a processing error", err)
	}
}
