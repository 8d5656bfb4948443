package exec

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
)

func keyBatch(keys ...int64) arrow.RecordBatch {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues(keys, nil)
	sc := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	return array.NewRecordBatch(sc, []arrow.Array{b.NewArray()}, int64(len(keys)))
}

// TestKeyedGroupsMerge: partials of a plain GROUP BY k merged per
// partition write, at an epoch's end, the groups they changed with the
// counts over all rows so far, across a snapshot and restore; an epoch
// with no partial writes nothing.
func TestKeyedGroupsMerge(t *testing.T) {
	ctx := context.Background()
	cnt, err := expr.NewAggregate("count", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHashAggregate([]expr.Expr{expr.Col(0, "k", arrow.PrimitiveTypes.Int64)}, []string{"k", "n"}, []*expr.Aggregate{cnt})
	if err != nil {
		t.Fatal(err)
	}
	tmpl := NewStreamAggregate(h, Update).KeyedGroups()
	byPart := map[int]*WindowAggregate{}
	fold := func(keys ...int64) {
		p := tmpl.Partitioner(3)
		if err := p.Process(ctx, keyBatch(keys...), nil); err != nil {
			t.Fatal(err)
		}
		partials, err := p.Take()
		if err != nil {
			t.Fatal(err)
		}
		for _, wp := range partials {
			w := byPart[wp.Partition]
			if w == nil {
				if w, err = tmpl.Fresh(); err != nil {
					t.Fatal(err)
				}
				byPart[wp.Partition] = w
			}
			// No watermark closes the one window, however late.
			if ok, err := w.MergePartialState(ctx, wp.Start, wp.End, wp.State, 1<<62); err != nil || !ok {
				t.Fatalf("partial of partition %d: merged %v, %v", wp.Partition, ok, err)
			}
		}
	}
	epoch := func() []string {
		var rows []string
		for _, w := range byPart {
			out := NewCollect()
			if err := w.EndEpoch(ctx, out); err != nil {
				t.Fatal(err)
			}
			for _, b := range out.Batches() {
				k, n := b.Column(0).(*array.Int64), b.Column(1).(*array.Int64)
				for i := 0; i < int(b.NumRows()); i++ {
					rows = append(rows, fmt.Sprintf("%d:%d", k.Value(i), n.Value(i)))
				}
			}
		}
		sort.Strings(rows)
		return rows
	}
	fold(1, 2, 2, 3)
	if got := fmt.Sprint(epoch()); got != "[1:1 2:2 3:1]" {
		t.Fatalf("first epoch: %s", got)
	}
	// Owners restored from the commit fold on from its state.
	for p, w := range byPart {
		var buf bytes.Buffer
		if err := w.Snapshot(&buf); err != nil {
			t.Fatal(err)
		}
		r, err := tmpl.Fresh()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Restore(&buf); err != nil {
			t.Fatal(err)
		}
		byPart[p] = r
	}
	if got := epoch(); len(got) != 0 {
		t.Fatalf("an epoch with no partial wrote %v", got)
	}
	fold(2, 3, 4, 5, 5, 5)
	// Only the groups the partials changed, with their counts so far.
	if got := fmt.Sprint(epoch()); got != "[2:3 3:2 4:1 5:3]" {
		t.Fatalf("second epoch: %s", got)
	}
	if len(byPart) < 2 {
		t.Fatalf("5 keys over 3 partitions landed in %d", len(byPart))
	}
}
