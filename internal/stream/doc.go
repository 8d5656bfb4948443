// Package stream decides when a streaming query runs and what it has
// done: the micro-batch loop (Query.Run), its triggers, the checkpoint
// protocol, the checkpoint's lock, event-time watermarks and the state
// snapshots of stateful operators. What a query computes is exec's (a
// plan from physical.CompileStream); what it reads and writes is a
// connector's.
//
// # A worked example
//
// internal/streams builds a Query from INSERT STREAM INTO out SELECT ... FROM
// logs WITH (trigger = '10 seconds') roughly so (internal/streams, run.go):
//
//	p, _ := physical.CompileStream(node, physical.Options{})
//	q := &stream.Query{
//		Name:       "out_stream",
//		Checkpoint: &stream.Checkpoint{Store: store, Prefix: "checkpoints/out_stream/"},
//		Trigger:    stream.Trigger{Interval: 10 * time.Second},
//		Source:     p.Source,     // logs read as a connector.StreamingSource
//		Scan:       p.StreamScan, // the scan Run feeds each epoch's splits
//		Root:       p.Root,
//		Sink:       sink,         // registry.OpenSink for out
//		EventTime:  p.EventTime,  // nil without an event-time column
//	}
//	if p.EventTime != nil {
//		q.Watermark = stream.NewWatermark(p.EventDelay, 0)
//	}
//	err := q.Run(ctx, stop) // until ctx is cancelled or stop is closed
//
// Say logs has files a.json and b.json when the stream starts, and c.json
// arrives later. Run takes the checkpoint's lock, finds no commits/ and
// runs epoch 0: offsets/0 records {a.json, b.json} and the watermark,
// exec.Run reads exactly those files, the sink flushes epoch 0,
// state/0/<id> holds each stateful operator's snapshot, commits/0 is
// written, and the source records a.json and b.json as seen. Ten seconds
// after epoch 0 started the trigger fires; with nothing new (and no
// watermark move that closes a window) no epoch runs. Once c.json is
// listed, epoch 1 records offsets/1 = {c.json} and runs the same way.
// With the default trigger (no interval) and a source that is told of
// new data (connector.ArrivalWaiter: S3 events on a queue), the wait
// between epochs ends when an event arrives, not at the next 100 ms poll.
//
// Now the process is killed after offsets/1 but before commits/1. On
// restart Run finds commits/0, restores state/0, repeats the source's
// Commit(0) (idempotent), and sees offsets/1 without its commit: epoch 1
// is replayed from offsets/1, the same c.json with the same watermark,
// not from a new listing.
//
// # Why a micro-batch loop
//
// A batch query is one epoch ending in watermark +infinity; a stream is
// a sequence of epochs through the same operators, each ending in that
// epoch's watermark. So batch and streaming share every operator, and an
// epoch is the unit everything else is counted in: what was read, what
// the sink wrote, what the state held, when it all became durable.
// Sluice follows Spark's structured streaming here (offsets, commits,
// state per epoch, the previous epoch's watermark for lateness), so its
// semantics and option names are the ones its users know.
//
// # The offsets/commits protocol
//
// Each epoch N goes, in this order (runner.go step and runEpoch):
//
//	offsets/N      put-if-absent before anything runs: exactly what N reads
//	               (connector.Offset) and its watermark; a second writer
//	               loses with ErrConcurrentWriter
//	exec.Run       over exactly those splits
//	Sink.Flush(N)  the epoch's output durable
//	state/N/<id>   each stateful operator's snapshot (or .delta, see state.go)
//	commits/N      put-if-absent: N is done; lists the operators' ids and
//	               fingerprints and the next watermark
//	Source.Commit  the source's own record (seen files, queue acks)
//
// Every step before commits/N may be repeated: a restart replays an
// epoch that has offsets/N but no commits/N, reading the same input with
// the same watermark, and sinks name their output by epoch (file names,
// document ids), so the replay overwrites rather than duplicates. That is
// the exactly-once the package gives, with at-least-once sources and
// idempotent sinks. Writing offsets/N first is what makes the replay the
// same epoch; writing commits/N only after the flush and the state is
// what makes a commit mean all three are durable. Source.Commit comes
// last, and Run repeats it for the last commit on every start, because a
// crash may fall between the two.
//
// A restart also refuses a plan whose stateful operators differ from
// commits/<last>'s (StateMismatchError) before it touches anything, so a
// changed query cannot restore state that means something else. The lock
// (lock.go: flock locally, a lease object on S3) keeps two processes off
// one checkpoint; Purge keeps the last Retain epochs.
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
