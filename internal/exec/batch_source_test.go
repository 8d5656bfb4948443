package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestBatchSource(t *testing.T) {
	a := batchOf(t, []string{"x"}, []any{int64(1), int64(2)})
	b := batchOf(t, []string{"x"}, []any{int64(3)})
	src := NewBatchSource("values", a.Schema(), []arrow.RecordBatch{a, b})
	if d := src.Describe(); d != "values batches=2 rows=3" {
		t.Errorf("Describe %q", d)
	}
	splits := src.Splits()
	if len(splits) != 2 || splits[1].ID() != "values/1" || splits[0].Size() <= 0 {
		t.Fatalf("splits %v", splits)
	}
	out := NewCollect()
	if err := Run(context.Background(), &Stage{Scan: &Scan{Source: src, Splits: splits}}, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"1", "2", "3"})
	// Reading twice yields the same rows: the source holds its batches.
	out = NewCollect()
	if err := Run(context.Background(), &Stage{Scan: &Scan{Source: src, Splits: splits}}, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"1", "2", "3"})
}
