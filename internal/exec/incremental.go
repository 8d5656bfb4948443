package exec

import "io"

// Incremental is a Stateful operator that can save only what changed
// since its last save, so a checkpoint need not rewrite all of its state
// every epoch.
//
// The operator tracks changes from its last Snapshot, SnapshotDelta or
// Restore: each of them starts tracking afresh. SnapshotDelta writes what
// changed since then; RestoreDelta applies such a delta on top of the
// state restored so far. Restoring a Snapshot and then, in order, every
// delta written after it gives exactly the state a Snapshot would have
// written at the last delta.
type Incremental interface {
	Stateful
	SnapshotDelta(w io.Writer) error
	RestoreDelta(r io.Reader) error
}
