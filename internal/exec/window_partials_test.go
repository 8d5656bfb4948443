package exec

import (
	"context"
	"fmt"
	"sort"
	"testing"
)

// TestWindowPartitionerMerge: two readers' partials of the same windows,
// merged per partition into fresh window aggregates, close to what one
// window aggregate over all the rows gives.
func TestWindowPartitionerMerge(t *testing.T) {
	ctx := context.Background()
	tmpl := newTumbleCount(t, Append)
	var partials []WindowPartial
	for _, mins := range [][]int64{{1, 2, 6}, {3, 7, 11}} {
		p := tmpl.Partitioner(4)
		if err := p.Process(ctx, tsBatch(mins...), nil); err != nil {
			t.Fatal(err)
		}
		got, err := p.Take()
		if err != nil {
			t.Fatal(err)
		}
		partials = append(partials, got...)
	}
	byPart := map[int]*WindowAggregate{}
	for _, wp := range partials {
		w := byPart[wp.Partition]
		if w == nil {
			var err error
			if w, err = tmpl.Fresh(); err != nil {
				t.Fatal(err)
			}
			byPart[wp.Partition] = w
		}
		if ok, err := w.MergePartialState(ctx, wp.Start, wp.End, wp.State, 5*60_000_000); err != nil {
			t.Fatal(err)
		} else if ok != (wp.End > 5*60_000_000) {
			t.Errorf("window %d merged %v", wp.Start, ok)
		}
	}
	var rows []string
	for _, w := range byPart {
		out := NewCollect()
		if err := w.OnWatermark(ctx, 1<<62, out); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, rowsOut(out)...)
	}
	sort.Strings(rows)
	// [0,5) was closed by watermark 5 before its partials came: dropped.
	if got := fmt.Sprint(rows); got != "[10:1 5:2]" {
		t.Fatalf("merged windows: %s", got)
	}
}
