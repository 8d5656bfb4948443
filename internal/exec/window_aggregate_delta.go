package exec

import (
	"encoding/binary"
	"fmt"
	"io"
	"sort"
)

// A window aggregate's delta is the starts of the windows closed since
// the last save, then the windows opened or changed since, each whole
// (as Snapshot writes them): a window's groups are saved together, so an
// epoch writes the windows its rows fell into, not every open one.

// SnapshotDelta writes the windows closed and changed since the last
// Snapshot, SnapshotDelta or Restore.
func (w *WindowAggregate) SnapshotDelta(wr io.Writer) error {
	gone := sortedKeys(w.removed)
	if err := binary.Write(wr, binary.LittleEndian, int64(len(gone))); err != nil {
		return err
	}
	if len(gone) > 0 {
		if err := binary.Write(wr, binary.LittleEndian, gone); err != nil {
			return err
		}
	}
	if err := w.writeWindows(wr, sortedKeys(w.changed)); err != nil {
		return err
	}
	w.clearChanges()
	return nil
}

// RestoreDelta closes the delta's closed windows, then replaces or adds
// its changed ones.
func (w *WindowAggregate) RestoreDelta(r io.Reader) error {
	var n int64
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return fmt.Errorf("window aggregate delta: %w", err)
	}
	if n < 0 || n > maxSection/8 {
		return fmt.Errorf("corrupt window aggregate delta: %d closed windows", n)
	}
	gone := make([]int64, n)
	if err := binary.Read(r, binary.LittleEndian, gone); err != nil {
		return fmt.Errorf("window aggregate delta: %w", err)
	}
	for _, s := range gone {
		if ow, ok := w.windows[s]; ok {
			ow.agg.Reset()
			delete(w.windows, s)
		}
	}
	if err := w.readWindows(r); err != nil {
		return err
	}
	w.clearChanges()
	return nil
}

func sortedKeys(m map[int64]struct{}) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
