package exec

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
	"sluice/internal/types"
)

var tsSchema = arrow.NewSchema([]arrow.Field{{Name: "ts", Type: types.Timestamp, Nullable: true}}, nil)

func tsBatch(minutes ...int64) arrow.RecordBatch {
	b := array.NewTimestampBuilder(memory.DefaultAllocator, types.Timestamp.(*arrow.TimestampType))
	for _, m := range minutes {
		b.Append(arrow.Timestamp(m * 60_000_000))
	}
	return array.NewRecordBatch(tsSchema, []arrow.Array{b.NewArray()}, int64(len(minutes)))
}

// rowsOut renders window start (minutes) and count per emitted row.
func rowsOut(c *Collect) []string {
	var out []string
	for _, b := range c.Batches() {
		w := b.Column(0).(*array.Struct).Field(0).(*array.Timestamp)
		n := b.Column(1).(*array.Int64)
		for i := 0; i < int(b.NumRows()); i++ {
			out = append(out, fmt.Sprintf("%d:%d", int64(w.Value(i))/60_000_000, n.Value(i)))
		}
	}
	return out
}

func newTumbleCount(t *testing.T, mode OutputMode) *WindowAggregate {
	t.Helper()
	ts := expr.Col(0, "ts", types.Timestamp)
	size, _ := expr.Lit("5 minutes", types.String)
	win, err := expr.Call("tumble", ts, size)
	if err != nil {
		t.Fatal(err)
	}
	cnt, err := expr.NewAggregate("count", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWindowAggregate([]expr.Expr{win}, []string{"w", "n"}, []*expr.Aggregate{cnt}, 0, mode)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWindowAggregateAppendAndSnapshot(t *testing.T) {
	ctx := context.Background()
	w := newTumbleCount(t, Append)
	out := NewCollect()
	if err := w.Process(ctx, tsBatch(1, 2, 6, 11), out); err != nil {
		t.Fatal(err)
	}
	// The watermark at minute 5 closes [0, 5) only.
	if err := w.OnWatermark(ctx, 5*60_000_000, out); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rowsOut(out)); got != "[0:2]" || w.OpenWindows() != 2 {
		t.Fatalf("after watermark 5: %s, %d open", got, w.OpenWindows())
	}
	// Snapshot, restore into a fresh operator, continue there.
	var buf bytes.Buffer
	if err := w.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	w2 := newTumbleCount(t, Append)
	if err := w2.Restore(&buf); err != nil {
		t.Fatal(err)
	}
	out2 := NewCollect()
	if err := w2.Process(ctx, tsBatch(7, 12), out2); err != nil {
		t.Fatal(err)
	}
	if err := w2.OnWatermark(ctx, WatermarkEnd, out2); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rowsOut(out2)); got != "[5:2 10:2]" || w2.OpenWindows() != 0 {
		t.Fatalf("after restore: %s, %d open", got, w2.OpenWindows())
	}
}

func TestWindowAggregateUpdate(t *testing.T) {
	ctx := context.Background()
	w := newTumbleCount(t, Update)
	out := NewCollect()
	if err := w.Process(ctx, tsBatch(1, 6), out); err != nil {
		t.Fatal(err)
	}
	if err := w.EndEpoch(ctx, out); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rowsOut(out)); got != "[0:1 5:1]" {
		t.Fatalf("epoch 1: %s", got)
	}
	out = NewCollect()
	if err := w.Process(ctx, tsBatch(7), out); err != nil {
		t.Fatal(err)
	}
	if err := w.EndEpoch(ctx, out); err != nil {
		t.Fatal(err)
	}
	// Only the window that changed is written again.
	if got := fmt.Sprint(rowsOut(out)); got != "[5:2]" {
		t.Fatalf("epoch 2: %s", got)
	}
}
