package streams

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/job"
	"sluice/internal/sql"
)

// Spec is a stream definition as kept in the catalog (kind "stream", its
// Options). Its JSON keys are the stored format and never change.
type Spec struct {
	Table      string            `json:"table"`
	Trigger    string            `json:"trigger,omitempty"`
	Checkpoint string            `json:"checkpoint"`
	Options    map[string]string `json:"options,omitempty"`
	// Desired is the state the stream was asked to be in (job.DesiredRunning,
	// job.DesiredStopped); empty for streams only ever run in the foreground.
	Desired string `json:"desired,omitempty"`
	// Source is the catalog table the stream reads as a stream, recorded
	// when it first planned: STOP STREAM opens it for its stop signal
	// without planning the query again. Empty in definitions written
	// before it was recorded (their workers then stop by the
	// checkpoint's marker alone).
	Source string `json:"source,omitempty"`
	// Query and Columns are what the stream runs, kept apart from the
	// statement's display form (the catalog object's SQL, redacted as
	// SHOW prints it): Query is the query's canonical text, which no
	// printer redacts (a query holds no OPTIONS), so storage is never
	// redacted. Empty in definitions written before (START STREAM then
	// reads the statement).
	Query   string   `json:"query,omitempty"`
	Columns []string `json:"columns,omitempty"`
	// Wrap, when set, stands between the stream and its table's sink (a
	// skipping index folds rows per file); never stored.
	Wrap *SinkWrap `json:"-"`
}

// Definition is the stream's definition in the one shape of every job
// (job.Definition): for one stored before definitions kept their query,
// Query is empty.
func (s Spec) Definition(name string) job.Definition {
	return job.Definition{Name: name, Kind: job.Stream, Query: s.Query, Sink: s.Table, Options: s.Options}
}

// Write is what a stream runs: the query whose rows it writes and the
// table they go to (into Columns, when INSERT STREAM lists them).
// INSERT STREAM gives one from its statement; a materialized view and a
// skipping index from their definitions, so neither makes up an INSERT
// STREAM statement it never had.
type Write struct {
	Table   string
	Columns []string
	Query   *sql.Query
	// Sink, when set, is Table's definition before the catalog has it:
	// EXPLAIN CREATE MATERIALIZED VIEW plans the view's stream into the
	// table the view would create.
	Sink *catalog.Table
}

// SinkWrap puts a sink between a stream and its table's sink; Schema is
// what the stream's query must produce (a skipping index's refresh: see
// flint.SinkWrap).
type SinkWrap struct {
	Schema *arrow.Schema
	Wrap   func(connector.Sink) connector.Sink
}

// insertWrite is what INSERT STREAM s runs.
func insertWrite(s *sql.InsertStream) Write {
	return Write{Table: s.Table, Columns: s.Columns, Query: s.Query}
}
