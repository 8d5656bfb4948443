package exec

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// TestWindowAggregateDeltaRestoreEqualsFull runs epochs that open, update
// and close windows (one reopened after closing), saving a base then a
// delta per epoch; restoring base + deltas in order must give the same
// state (byte for byte, and the same output afterwards) as restoring the
// full snapshot of the last epoch.
func TestWindowAggregateDeltaRestoreEqualsFull(t *testing.T) {
	ctx := context.Background()
	w := newTumbleCount(t, Update)
	epochs := [][]int64{{1, 2, 6}, {7, 11, 12}, {13, 16}, {21}, {2, 22, 26}, {}, {31, 33, 41}}
	watermarks := []int64{0, 5, 10, 15, 20, 20, 30}
	var base bytes.Buffer
	if err := w.Snapshot(&base); err != nil {
		t.Fatal(err)
	}
	var deltas []*bytes.Buffer
	for i, mins := range epochs {
		if len(mins) > 0 {
			if err := w.Process(ctx, tsBatch(mins...), NewCollect()); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.OnWatermark(ctx, watermarks[i]*60_000_000, NewCollect()); err != nil {
			t.Fatal(err)
		}
		if err := w.EndEpoch(ctx, NewCollect()); err != nil {
			t.Fatal(err)
		}
		d := &bytes.Buffer{}
		if err := w.SnapshotDelta(d); err != nil {
			t.Fatal(err)
		}
		deltas = append(deltas, d)
	}
	var full bytes.Buffer
	if err := w.Snapshot(&full); err != nil {
		t.Fatal(err)
	}

	fromFull := newTumbleCount(t, Update)
	if err := fromFull.Restore(bytes.NewReader(full.Bytes())); err != nil {
		t.Fatal(err)
	}
	fromDeltas := newTumbleCount(t, Update)
	if err := fromDeltas.Restore(bytes.NewReader(base.Bytes())); err != nil {
		t.Fatal(err)
	}
	for i, d := range deltas {
		if err := fromDeltas.RestoreDelta(bytes.NewReader(d.Bytes())); err != nil {
			t.Fatalf("delta %d: %v", i, err)
		}
	}
	var a, b bytes.Buffer
	if err := fromFull.Snapshot(&a); err != nil {
		t.Fatal(err)
	}
	if err := fromDeltas.Snapshot(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || fromDeltas.OpenWindows() != w.OpenWindows() {
		t.Fatalf("base + deltas restore %d windows (%d bytes), full restore %d (%d bytes)",
			fromDeltas.OpenWindows(), b.Len(), fromFull.OpenWindows(), a.Len())
	}
	emit := func(x *WindowAggregate) string {
		out := NewCollect()
		if err := x.OnWatermark(ctx, WatermarkEnd, out); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(rowsOut(out))
	}
	// Update mode writes only dirty windows at close; make them all dirty.
	for _, x := range []*WindowAggregate{fromFull, fromDeltas} {
		if err := x.Process(ctx, tsBatch(34, 36, 44), NewCollect()); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := emit(fromDeltas), emit(fromFull); got != want || want != "[30:3 35:1 40:2]" {
		t.Fatalf("after base + deltas: %s, after full: %s", got, want)
	}
}

// TestWindowAggregateDeltaHoldsOnlyChanges: an epoch that touches one
// window of many writes a delta the size of that window, not of all.
func TestWindowAggregateDeltaHoldsOnlyChanges(t *testing.T) {
	ctx := context.Background()
	w := newTumbleCount(t, Update)
	var mins []int64
	for m := int64(0); m < 100; m += 5 {
		mins = append(mins, m)
	}
	if err := w.Process(ctx, tsBatch(mins...), NewCollect()); err != nil {
		t.Fatal(err)
	}
	var full, d bytes.Buffer
	if err := w.Snapshot(&full); err != nil {
		t.Fatal(err)
	}
	if err := w.Process(ctx, tsBatch(96), NewCollect()); err != nil {
		t.Fatal(err)
	}
	if err := w.SnapshotDelta(&d); err != nil {
		t.Fatal(err)
	}
	if d.Len()*10 > full.Len() {
		t.Fatalf("delta of 1 window of 20 is %d bytes, the full snapshot %d", d.Len(), full.Len())
	}
}
