package exec

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// KeyedGroups is s as a keyed stream's aggregate (docs/scale-out.md,
// part 2, plain GROUP BY): a WindowAggregate whose one window [0,
// MaxInt64) holds every group and never closes, so the partitioner, the
// partial merge, the snapshot and EndEpoch's update-mode emission of a
// changed window are the windowed path's own.
func (s *StreamAggregate) KeyedGroups() *WindowAggregate {
	names := make([]string, s.schema.NumFields())
	for i, f := range s.schema.Fields() {
		names[i] = f.Name
	}
	return unwindowed(s.groupBy, names, s.aggs, s.mode, s.schema)
}

func unwindowed(groupBy []expr.Expr, names []string, aggs []*expr.Aggregate, mode OutputMode, schema *arrow.Schema) *WindowAggregate {
	return &WindowAggregate{groupBy: groupBy, names: names, aggs: aggs, window: noWindow, mode: mode,
		schema: schema, windows: map[int64]*openWindow{},
		changed: map[int64]struct{}{}, removed: map[int64]struct{}{}, rowsBy: map[int64][]int64{}}
}

// noWindow is the window index of KeyedGroups' aggregate.
const noWindow = -1

// wholeStream is the [start, end) of KeyedGroups' one window.
var wholeStream = [2]int64{0, math.MaxInt64}

// Unwindowed reports whether w is KeyedGroups' aggregate.
func (w *WindowAggregate) Unwindowed() bool { return w.window == noWindow }

func (w *WindowAggregate) windowKeyString() string {
	if w.window == noWindow {
		return "none"
	}
	return w.groupBy[w.window].String()
}

// Mode is the aggregate's output mode.
func (s *StreamAggregate) Mode() OutputMode { return s.mode }

// noteChanged records the groups of a partial about to be merged into
// KeyedGroups' window: EndEpoch writes only those.
func (w *WindowAggregate) noteChanged(part *HashAggregate) error {
	if len(w.groupBy) == 0 {
		return nil // one group, written whenever the window is dirty
	}
	b, err := part.result()
	if err != nil {
		return fmt.Errorf("window aggregate: a partial's groups: %w", err)
	}
	defer b.Release()
	if w.changedKeys == nil {
		w.changedKeys = map[string]struct{}{}
	}
	var enc keyEncoder
	for _, k := range enc.encode(b.Columns()[:len(w.groupBy)], int(b.NumRows())) {
		w.changedKeys[string(k)] = struct{}{}
	}
	return nil
}

// endEpochChanged writes the groups of KeyedGroups' window that a
// partial changed since the last EndEpoch, in the window's group order.
func (w *WindowAggregate) endEpochChanged(ctx context.Context, out Output) error {
	changed := w.changedKeys
	w.changedKeys = nil
	ow := w.windows[wholeStream[0]]
	if ow == nil || !ow.dirty {
		return nil
	}
	ow.dirty = false
	if len(w.groupBy) == 0 {
		return ow.agg.EmitAll(ctx, out)
	}
	b, err := ow.agg.result()
	if err != nil {
		return fmt.Errorf("window aggregate: %w", err)
	}
	defer b.Release()
	var enc keyEncoder
	var rows []int
	for i, k := range enc.encode(b.Columns()[:len(w.groupBy)], int(b.NumRows())) {
		if _, ok := changed[string(k)]; ok {
			rows = append(rows, i)
		}
	}
	if err := sendRows(ctx, b, rows, out); err != nil {
		return fmt.Errorf("window aggregate: %w", err)
	}
	return nil
}
