package connector

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
)

// The list of connectors itself lives in package
// sluice/internal/connector/registry: it imports every connector, and the
// connectors import this package for Source, Sink and TableSpec, so the
// list cannot live here without an import cycle. This file holds only
// the types that list is made of.

// ErrNoSchema is returned by a Factory's Infer when there is nothing to
// infer from yet (an OpenSearch index that does not exist): a connector
// with DynamicSchema then starts the table with no columns.
var ErrNoSchema = errors.New("no schema to infer yet")

// Kind says whether a connector reads, writes or both.
type Kind int

// The connector kinds.
const (
	KindSource Kind = 1 << iota
	KindSink
	KindBoth = KindSource | KindSink
)

// String prints the kind for SHOW and errors.
func (k Kind) String() string {
	switch k {
	case KindSource:
		return "source"
	case KindSink:
		return "sink"
	case KindBoth:
		return "source+sink"
	}
	return "none"
}

// SinkOptions are what the engine, not the table, decides about one write.
type SinkOptions struct {
	// FilePrefix makes the names of files a sink writes unique to one
	// query (a query id, or "<query>-<epoch>" for streams). File sinks are
	// deterministic in it: the same prefix and the same input order give
	// the same file names, so a replayed epoch overwrites its own files.
	FilePrefix string
	// WriteID names the writes: a batch INSERT's query id (its epoch is
	// always 0), a stream's id from its checkpoint (stream.Checkpoint
	// WriteID, the same at every replay). Sinks that name rows without an
	// id by their epoch (OpenSearch, the local index; docid.Rows) hash it
	// in too, so equal rows of two INSERTs, or of two streams, stay two
	// documents. "" (a checkpoint a previous version started) gives the
	// ids of before.
	WriteID string
	// GroupIDs says the table's id columns carry the query's GROUP BY
	// keys (a materialized view's, an aggregating stream's): a NULL
	// among them is the NULL group's value, one document like any other
	// group's, not a row without an id.
	GroupIDs bool
	// TempDir holds the sink's scratch files (a file being written before
	// it is stored), under the data dir so that a killed process's
	// leftovers are found and swept at the next start; "" is the system
	// temp dir.
	TempDir string
	// Batch says the sink takes one statement's whole write (a batch
	// INSERT or CTAS), which the next statement expects to see: a sink
	// whose writes become visible later (OpenSearch's refresh) makes
	// them visible before its last Flush returns, unless the table's own
	// options say otherwise.
	Batch bool
}

// TempFilePrefix starts the names of sinks' scratch files in TempDir.
const TempFilePrefix = "sluice-sink-"

// Env is what a connector may take its defaults from: never the process
// environment, which only the registry reads.
type Env struct {
	// DataDir is the engine's data directory ("" when it has none).
	DataDir string
	// Settings are the session's SET values, keys lower-cased
	// (s3.endpoint = ...).
	Settings map[string]string
}

// Factory describes one connector in the registry. The registry checks
// option keys against OptionKeys before any function here runs, so a
// connector only checks values.
type Factory struct {
	// Name is what USING names, lower case.
	Name string
	Kind Kind
	// OptionKeys lists every OPTIONS key the connector accepts, sorted.
	OptionKeys []string
	// StreamOptionKeys are the OptionKeys a streaming query may set in its
	// own WITH (...) for that stream only, over the table's
	// (max_files_per_trigger and the like).
	StreamOptionKeys []string
	// NeedsLocation is true when a table must have a LOCATION.
	NeedsLocation bool
	// Description is one line for SHOW CONNECTORS and errors.
	Description string
	// Normalize, when set, rewrites other engines' spellings of option
	// keys (Spark's sep, inferSchema, multiLine, lower-cased) to the
	// connector's own, before keys are checked; it refuses an option
	// whose meaning the connector cannot honour.
	Normalize func(opts map[string]string) (map[string]string, error)

	// NewSource opens a table for reading (nil when Kind has no source).
	NewSource func(ctx context.Context, spec TableSpec) (Source, error)
	// NewSink opens a table for writing (nil when Kind has no sink).
	NewSink func(ctx context.Context, spec TableSpec, opts SinkOptions) (Sink, error)
	// Infer finds the schema of a table declared without columns: the
	// data columns then the partition columns, and the partition column
	// names (nil when the connector cannot infer).
	Infer func(ctx context.Context, spec TableSpec) (*arrow.Schema, []string, error)
	// DynamicSchema: a table declared without columns may have none yet
	// (Infer is nil or returns ErrNoSchema); its columns then come from
	// what is written, and later writes add columns, as OpenSearch's
	// dynamic mapping does.
	DynamicSchema bool
	// Validate checks option values (keys are already known to be in
	// OptionKeys); nil when there is nothing to check beyond the keys.
	Validate func(opts map[string]string) error
	// Defaults fills in, at CREATE, the options Sluice chooses and stores
	// with the table (a local index's path under the data dir). managed
	// is true when Sluice chose where the table's data lives, so that
	// DROP removes the data too. nil: nothing to fill in, not managed.
	Defaults func(spec *TableSpec, env Env) (managed bool, err error)
	// Session adds the session's settings to a table's options each time
	// it is opened, without storing them (SET s3.endpoint for file
	// tables); options set on the table win. nil: settings do not apply.
	Session func(spec TableSpec, env Env) TableSpec
	// Drop removes the data of a table whose storage Sluice manages
	// (DROP TABLE of a managed table, DROP MATERIALIZED VIEW). It removes
	// only what the connector wrote, and deletes nothing and returns an
	// error when the place holds anything else. A table with no data yet
	// is not an error. nil: the connector keeps no data of its own.
	Drop func(ctx context.Context, spec TableSpec) error
	// SameData reports whether two tables of this connector hold the same
	// data (the same index), so that a stream from one into the other
	// would read its own output. Tables with a LOCATION are compared by
	// the registry. nil: never the same.
	SameData func(a, b TableSpec) bool

	// Conformance declares what the connector supports, for the
	// conformance suite; every connector in the registry sets it.
	Conformance *Capabilities
}
