// Package connector defines sources and sinks: where rows come from and
// where they go. Each connector lives in its own folder; registry.go lists
// them all.
//
// The contracts are Source, Sink, Split and RecordReader (connector.go) and
// Factory (factory.go). Optional abilities, each checked with a type
// assertion where it is used, are in abilities.go (ProjectionPusher,
// FilterPusher, LimitPusher, MetadataColumnSource, Describer, Streamable,
// StreamingSource, AvailableNowSource, DiscoveryDescriber, StreamDescriber,
// QueueReporter, QueueSource, BackfillMarker, KeyedReporter, Worker,
// EpochNamer, SplitNamer, LagReporter, BadRowCounter, SinkStats,
// EpochBeginner, Replacer, RowErrorReporter, StageRowErrorReporter, ReplayPreparer,
// StopSignal, DictReader), aggregate.go (AggregatePusher) and skipping.go
// (FileSkipper, MembershipFilter). internal/stream/partition defines three
// more of its own for a keyed stream's reader source (Slotted, HeldSeqs,
// EventSeqs).
package connector

import (
	"context"
	"encoding/json"

	"github.com/apache/arrow-go/v18/arrow"
)

// Offset is a source's position. It serializes to JSON and replays
// exactly: Plan(from, to) with the same offsets yields the same splits.
type Offset = json.RawMessage

// Split is one unit of reading, typically one file.
type Split interface {
	// ID is stable across replays (object key and ETag for files); row ids
	// derived from it make sink writes idempotent.
	ID() string
	// Size is the number of bytes the split will read, for progress.
	Size() int64
}

// NamedSplit is a Split with a name for errors and logs other than its
// ID (a file's URI, where the ID adds the file's version).
type NamedSplit interface {
	Name() string
}

// RecordReader yields batches from one split; io.EOF ends it.
type RecordReader interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}

// Source is something rows are read from.
//
// Lifecycle: Latest names what is available now; Plan lists the splits
// between two offsets (from is nil for "the beginning"); Open reads one
// split. A batch query calls Latest once and plans from nil to it.
type Source interface {
	Schema() *arrow.Schema
	Latest(ctx context.Context) (Offset, error)
	Plan(ctx context.Context, from, to Offset) ([]Split, error)
	Open(ctx context.Context, split Split) (RecordReader, error)
}

// Sink is something rows are written to.
//
// Write may be called many times per epoch; Flush makes everything written
// in the epoch durable. Writing the same epoch again (a replay after a
// crash) must not duplicate rows: sinks use deterministic ids or
// deterministic file names.
type Sink interface {
	Schema() *arrow.Schema
	Write(ctx context.Context, batch arrow.RecordBatch) error
	Flush(ctx context.Context, epoch int64) error
	Close() error
}
