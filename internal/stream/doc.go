// Package stream runs a streaming query as a sequence of micro-batches
// (epochs): triggers (trigger.go), the checkpoint protocol
// (checkpoint.go, state.go), the checkpoint lock (lock.go), event-time
// watermarks (watermark.go), progress (progress.go), checkpoint removal
// (remove.go) and the sink groups of a several-file epoch (sink_groups.go).
//
// # The checkpoint protocol
//
// Query.Run locks the checkpoint (an OS file lock locally, a lease object
// renewed while the stream runs on an object store), checks the plan's
// stateful operators (id kind-ordinal, fingerprint of keys, window and
// aggregates) against the last commit and refuses to start on a mismatch,
// restores their state (for an exec.Incremental operator, the full
// snapshot, then each delta up to the last commit; state of uncommitted
// epochs is deleted) and recovers the source. Each trigger then writes
// offsets/N (put-if-absent: the source offsets and watermark of epoch N),
// runs exec.Run over exactly those splits, then sink Flush, state/N
// snapshots, commits/N and the source's Commit(N). An Incremental
// operator writes state/N/<id>.delta (only what the epoch changed), with a
// full snapshot every 32 deltas or once the deltas outgrow the last full
// one; commits/N's "deltas" says how many follow it. A cancelled ctx
// abandons the running epoch, which is replayed on restart with the same
// splits and watermark, so sinks overwrite rather than duplicate. When the
// watermark moved and stateful operators hold windows, the next trigger
// runs an epoch with no new input to close them.
//
// # Where the watermark lives
//
// Watermark (watermark.go) owns event-time progress: it derives the next
// watermark from the largest event time seen and the delay, records it in
// offsets/N, restores it from commits/N, and advances an idle stream after
// watermark_idle_timeout. exec.EventTime holds the epoch's watermark and
// reports the largest event time back; it drops nothing. As in Spark,
// only stateful operators with event-time state judge lateness, against
// the previous epoch's watermark (offsets/N's late_watermark, Spark's
// eventTimeWatermarkForLateEvents), when only row-by-row operators lie
// between them and EventTime: a window aggregate drops a row whose window
// ends at or before it, a session window one whose own session does; both
// count their drops on EventTime. Windows are emitted at the epoch's own
// watermark. Stateless streams and aggregates without a window keep every
// row. Processing time comes from an injectable Clock.
package stream
