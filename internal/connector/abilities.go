package connector

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/storage"
)

// Optional abilities. A Source or Sink implements the ones it has; the
// planner, the driver and the stream runner discover them with a type
// assertion, so a connector without one simply does not get that
// optimisation or report. This file is the whole list.

// ProjectionPusher is a source that can read only some columns. columns
// are names in the order the returned source's schema must have; they
// may include the metadata columns.
type ProjectionPusher interface {
	PushProjection(columns []string) (Source, error)
}

// FilterPusher is a source that can skip data using a predicate over its
// own schema (partition pruning, Parquet statistics, a search query).
// The source may still return rows that fail the predicate: the engine
// always re-applies it. Describe says what was pushed, for EXPLAIN.
type FilterPusher interface {
	PushFilter(pred expr.Expr) (Source, error)
}

// MetadataColumnSource is a source that offers hidden columns besides its
// schema (a file table's _file and _row). They are not part of SELECT *;
// a query that names them gets them through PushProjection.
type MetadataColumnSource interface {
	MetadataColumns() []string
}

// Describer is a source or sink that explains itself in EXPLAIN, e.g.
// "files=12 pruned=30 columns=[status, size]".
type Describer interface {
	Describe() string
}

// Streamable is a source a streaming query can read incrementally: Stream
// returns the streaming form of the same (projected, filtered) source.
type Streamable interface {
	Stream() (StreamingSource, error)
}

// CheckpointArea is the part of a stream's checkpoint a streaming source
// owns, to keep its own progress (the files it has seen) across restarts.
type CheckpointArea struct {
	Store  storage.Store
	Prefix string // ends with '/'
}

// StreamingSource is a source a streaming query reads incrementally.
//
// Lifecycle, driven by internal/stream:
//
//	Recover(area, committed)  once, before anything else: load progress as
//	                          of the last committed epoch (-1: none); drop
//	                          anything recorded for later epochs, which
//	                          will be replayed from their offsets.
//	Latest(ctx)               discover what is new since the last Commit,
//	                          within the rate limits (max_files_per_trigger,
//	                          max_bytes_per_trigger; always at least one
//	                          file). nil means nothing new.
//	Plan(ctx, nil, offset)    the splits of one epoch's offset: the same
//	                          splits every time, so a replay is exact.
//	Commit(epoch, offset)     the epoch is durable: its files are seen.
//
// Latest does not change what is seen: calling it twice without Commit
// returns the same data again (plus anything newer, within limits).
type StreamingSource interface {
	Source
	Recover(ctx context.Context, area CheckpointArea, committed int64) error
	Commit(ctx context.Context, epoch int64, offset Offset) error
}

// AvailableNowSource is a streaming source that can fix the end of its
// backlog: after PrepareAvailableNow, Latest only returns data that existed
// when it was called, so trigger 'available_now' stops once caught up even
// while new files keep landing.
type AvailableNowSource interface {
	PrepareAvailableNow(ctx context.Context) error
}

// DiscoveryDescriber is a streaming source that says how it finds new
// input, for a stream's EXPLAIN: "full listing", "start_after listing",
// "notifications from <queue, redacted>". It reads nothing.
type DiscoveryDescriber interface {
	DiscoveryDescription() string
}

// StreamDescriber is a streaming source with more to show in DESCRIBE
// STREAM than progress: key/value rows (a notification queue's counters
// and backlog). It is called from another goroutine than the epochs.
type StreamDescriber interface {
	StreamDescription() [][2]string
}

// QueueReporter is a StreamDescriber reading a notification queue whose
// counters and backlog can be had as numbers (the server's metrics); the
// DESCRIBE STREAM rows show the same status. False when the source reads
// no queue. It is called from another goroutine than the epochs.
type QueueReporter interface {
	QueueStatus() (QueueStatus, bool)
}

// QueueStatus is a notification queue's counters since the source
// started, and its backlog as of the last poll.
type QueueStatus struct {
	// Counts are the message and file counters by kind (received,
	// new_files, duplicates, filtered, gone, foreign, malformed), in a
	// fixed order.
	Counts []QueueCount
	// Held is how many messages wait for their epoch to commit.
	Held int64
	// Pending are messages not yet delivered to anyone; Unacked were
	// delivered and not acknowledged yet.
	Pending, Unacked int64
}

// QueueCount is one counter of a QueueStatus.
type QueueCount struct {
	Kind string
	N    int64
}

// QueueSource is a streaming source that reads a notification queue
// (file discovery 'notifications'): QueueURL is its URL, "" when this
// source reads none. A windowed aggregation shared by workers
// (docs/scale-out.md, part 2) keeps its partials and leases on the
// queue's broker, so it runs only over a source whose queue's broker
// can hold them (stream/partition.Dial says which: JetStream).
type QueueSource interface {
	QueueURL() string
}

// BackfillMarker is a shared streaming source that lists its location
// on first start, in worker slot 0 only, ahead of its queue (file
// notifications with backfill). BackfillMarker(slot0) is the key, in
// slot 0's checkpoint area, that exists once every file of that listing
// is committed; "" when the source does not list. It is called before
// SetWorker, which turns the listing off for every slot but 0. Until the
// key exists a keyed stream's owners forget no file id: a listed file's
// partials carry no queue sequence to tell a late one by.
type BackfillMarker interface {
	BackfillMarker(slot0 CheckpointArea) string
}

// KeyedReporter is a StreamDescriber of a windowed aggregation shared
// by workers (docs/scale-out.md, part 2): KeyedStatus is its partition
// ownership as this process sees it, as numbers (the server's metrics);
// the DESCRIBE STREAM keyed_ rows show the same status. It is called
// from another goroutine than the epochs.
type KeyedReporter interface {
	KeyedStatus() KeyedStatus
}

// KeyedStatus is a keyed stream's partition ownership as one process
// sees it.
type KeyedStatus struct {
	// Worker is this process's name among the workers.
	Worker string
	// Parts is the number of partitions; Mine those this process owns.
	Parts int
	Mine  []int
	// Owned is the number of partitions each worker holds a lease on.
	Owned map[string]int
	// Live is how many workers are alive.
	Live int
	// Watermark is the keyed watermark (µs), stream.NoWatermark before any.
	Watermark int64
	Stats     KeyedStats
}

// KeyedStats counts a partition owner's work since it started.
type KeyedStats struct {
	Epochs, Partials, Late, Duplicates, RowsOut, Takeovers, Handbacks int64
	// Forgotten counts file ids dropped from the dedupe sets once no
	// partial of theirs could still be new; FileIDs is how many the
	// owned partitions hold now.
	Forgotten, FileIDs int64
}

// Worker is a streaming source that can be one of several processes
// sharing a stream (docs/scale-out.md): SetWorker(slot, workers) comes
// before Recover; an error says the source cannot be shared that way.
type Worker interface {
	SetWorker(slot, workers int) error
}

// EpochNamer is a streaming source that names an epoch for the sink by
// its input rather than by its number: SinkEpoch(offset) is what the
// sink's BeginEpoch and Flush get (ok false: the epoch number). Two
// epochs, of any worker, over the same input then write the same files
// or documents, so reading a file twice cannot duplicate it.
type EpochNamer interface {
	SinkEpoch(offset Offset) (epoch int64, ok bool)
}

// SplitNamer is an EpochNamer whose epochs may read several inputs,
// each written by the sink under an id of its own: SplitEpoch(split) is
// that id (ok false: the split has none). The runner then gives the
// sink one BeginEpoch/Flush per id within the epoch, so an input's
// output is the same whichever epoch, alone or with others, read it.
type SplitNamer interface {
	SplitEpoch(split Split) (epoch int64, ok bool)
}

// LagReporter is a streaming source that knows how much is waiting beyond
// the rate limits after its last Latest.
type LagReporter interface {
	Lag() (files int, bytes int64)
}

// BadRowCounter is a streaming source that counts the malformed rows it
// dropped or dead-lettered; TakeBadRows returns the count since the last
// call and starts over, so each epoch reports its own.
type BadRowCounter interface {
	TakeBadRows() int64
}

// ReconcileCounter is a streaming source that finds some input by
// reconcile listings (files whose notifications were lost) and says how
// many of an epoch's, from the epoch's offset alone, so that a replayed
// epoch counts them again exactly as the first attempt would have.
type ReconcileCounter interface {
	ReconciledFiles(offset Offset) int
}

// SinkStats is a sink that counts what it could not write at once: the
// requests it retried and the rows it dead-lettered, both since it was
// opened (monotonic). The stream runner turns them into per-epoch counts
// for progress and metrics.
type SinkStats interface {
	SinkStats() (retries, deadLetters int64)
}

// EpochBeginner is a sink that wants to know which epoch the following
// Writes belong to, before its Flush(epoch). File sinks put the epoch in
// the names of the files they write so that a replay of epoch N after a
// restart writes exactly the names the first attempt did.
type EpochBeginner interface {
	BeginEpoch(ctx context.Context, epoch int64) error
}

// Replacer is a sink that can replace what a table holds: INSERT
// OVERWRITE. BeginReplace, called before the first Write, notes the data
// there now: the whole table's, or with static (one-row arrays, values
// of the leading partition columns in PartitionBy order) that partition
// folder's only. It fails, deleting nothing, when the data is not all
// the sink's to delete. Once Flush has succeeded the engine calls
// CommitReplace, which deletes what BeginReplace noted; when the write
// fails it calls AbortReplace instead, which deletes what this sink
// stored, so the old rows stay. New data is stored before old data is
// deleted: a crash in between leaves both, never neither.
type Replacer interface {
	BeginReplace(ctx context.Context, static []arrow.Array) error
	CommitReplace(ctx context.Context) error
	AbortReplace(ctx context.Context) error
}

// LimitPusher is a source that can stop early: the returned source yields
// at most n rows from each split. The engine still applies the LIMIT
// across splits; it pushes one only when nothing between the LIMIT and
// the scan drops or adds rows.
type LimitPusher interface {
	PushLimit(n int64) (Source, error)
}

// RowErrorReporter is a reader that decides what happens to a row whose
// evaluation failed in the scan's own operators (an arithmetic overflow
// in a projection or filter), under the table's mode for bad rows:
// FAILFAST returns an error naming the file and row, which fails the
// query; DROPMALFORMED and PERMISSIVE record the row as a bad row (dead
// letter, counts) and return nil, and the row is dropped. row is the
// row's ordinal in the split, from 0.
type RowErrorReporter interface {
	ReportRowError(row int64, err error) error
}

// StageRowErrorReporter is a streaming source that also decides about
// rows that failed above its scan's own operators, where no reader is
// left to ask (an expression over the event-time column, a sum that
// overflowed in a streaming aggregate), under the table's mode for bad
// rows. split is the ID of the split the row came from and row the
// failing operator's input (one row). FAILFAST returns an error naming
// the file, which fails the epoch; DROPMALFORMED and PERMISSIVE keep the
// row for the dead-letter location and return nil, and the row is
// dropped. The stream runner calls EndStageRowErrors after each epoch's
// run: ok stores the epoch's rows (dead letters named after the split,
// so a replay overwrites them) and counts them as bad rows; !ok (the run
// failed; the epoch will be replayed) forgets them.
type StageRowErrorReporter interface {
	ReportStageRowError(split string, row arrow.RecordBatch, err error) error
	EndStageRowErrors(ctx context.Context, ok bool) error
}

// ReplayPreparer is a streaming source told, before Plan, that an epoch
// planned by an earlier run is being replayed: its input may have changed
// since (a bad file fixed after a FAILFAST epoch), and what the replay
// reads is what the source must record at Commit, or it would take the
// version it has just read for a new one and read it again (duplicates
// in a sink whose ids hash the epoch's rows).
type ReplayPreparer interface {
	PrepareReplay(ctx context.Context, offset Offset) error
}

// StopSignal is a shared source (workers = N) whose substrate carries
// STOP STREAM to every process reading it: RequestStop asks them all;
// StopWatch returns a channel closed on a request made after the call,
// until ctx ends. Both fail with errors.ErrUnsupported when the
// source's substrate has no such signal (the checkpoint's stop marker
// is then the only one).
type StopSignal interface {
	RequestStop(ctx context.Context) error
	StopWatch(ctx context.Context) (<-chan struct{}, error)
}

// DictReader is an optional ability of a RecordReader: NextDict is Next
// except that a STRING or BINARY column may come as an Arrow dictionary
// array (int32 indices) of that type, which the batch's schema shows;
// consecutive batches may share one dictionary array (a Parquet column
// chunk's), so a consumer can do its per-value work once per dictionary
// entry. Only a caller that handles dictionary columns calls NextDict.
type DictReader interface {
	RecordReader
	NextDict(ctx context.Context) (arrow.RecordBatch, error)
}

// SizeReporter is a source that can say how much data it holds without
// reading it (a file table's listing): ANALYZE TABLE's size in bytes.
type SizeReporter interface {
	DataSize(ctx context.Context) (files, bytes int64, err error)
}

// ArrivalWaiter is a streaming source that is told of new data (S3
// events on a queue), so a stream with the default trigger starts its
// next epoch when data arrives instead of at its next poll.
//
// WaitArrival blocks until new data may be there (true), or d has
// passed or ctx ended (false). What arrived is kept for the next Latest;
// nothing is acknowledged or lost by waiting. It reports false at once
// when this source cannot be told (it lists): the caller's trigger
// clock decides then. It is called between epochs, never during Latest
// or Plan.
type ArrivalWaiter interface {
	WaitArrival(ctx context.Context, d time.Duration) bool
}
