package exec

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

// TestHashAggregateBadRows: under a row error handler, a row whose
// contribution overflows a sum is handed to the handler and left out of
// every aggregate, the others' included (count(*) and a sum updated
// before the failing one); without a handler the overflow fails as it
// always did.
func TestHashAggregateBadRows(t *testing.T) {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	// Row 2 overflows sum(k) in group a; row 3 overflows sum(v) in group b.
	b := typedBatch(t, []any{int64(math.MaxInt64), int64(1), int64(1), int64(5)},
		[]any{"a", "b", "a", "b"},
		[]any{int64(1), int64(math.MaxInt64), int64(2), int64(1)})
	defer b.Release()
	newAgg := func() *HashAggregate {
		h, err := NewHashAggregate([]expr.Expr{expr.Col(1, "s", str)}, []string{"s"}, []*expr.Aggregate{
			mustAgg(t, "count", nil),
			mustAgg(t, "sum", []expr.Expr{expr.Col(0, "k", i64)}),
			mustAgg(t, "sum", []expr.Expr{expr.Col(2, "v", i64)}),
		})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}

	var bad []string
	ctx := WithRowErrorHandler(context.Background(), func(split string, row arrow.RecordBatch, err error) error {
		bad = append(bad, split+" "+strings.Join(rowsOf([]arrow.RecordBatch{row}), "")+" "+err.Error())
		return nil
	})
	src := memtable.New(b.Schema(), []arrow.RecordBatch{b})
	defer src.Release()
	splits, err := src.Plan(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := NewCollect()
	defer out.Release()
	st := &Stage{Scan: &Scan{Source: src, Splits: splits}, Ops: []Operator{newAgg()}}
	if err := Run(ctx, st, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"a,1,9223372036854775807,1", "b,1,1,9223372036854775807"})
	split := splits[0].ID()
	if len(bad) != 2 || !strings.HasPrefix(bad[0], split+" 1,a,2 arithmetic overflow in sum(k)") ||
		!strings.HasPrefix(bad[1], split+" 5,b,1 arithmetic overflow in sum(v)") {
		t.Fatalf("bad rows:\n%s", strings.Join(bad, "\n"))
	}

	// No handler (a batch query): the first overflow fails, message as before.
	err = newAgg().Process(context.Background(), b, nil)
	if err == nil || !strings.Contains(err.Error(), "hash aggregate: sum(k): arithmetic overflow: 9223372036854775807 + 1 does not fit in BIGINT") {
		t.Fatalf("without a handler: %v", err)
	}
}
