package engine

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/sql"
)

// streamWrite is what a stream runs: the query whose rows it writes and
// the table they go to (into Columns, when INSERT STREAM lists them).
// INSERT STREAM gives one from its statement; a materialized view and a
// skipping index from their definitions, so neither makes up an INSERT
// STREAM statement it never had.
type streamWrite struct {
	Table   string
	Columns []string
	Query   *sql.Query
	// sink, when set, is Table's definition before the catalog has it:
	// EXPLAIN CREATE MATERIALIZED VIEW plans the view's stream into the
	// table the view would create.
	sink *catalog.Table
}

// sinkWrap puts a sink between a stream and its table's sink; schema is
// what the stream's query must produce (a skipping index's refresh: see
// flint.SinkWrap).
type sinkWrap struct {
	schema *arrow.Schema
	wrap   func(connector.Sink) connector.Sink
}

// insertWrite is what INSERT STREAM s runs.
func insertWrite(s *sql.InsertStream) streamWrite {
	return streamWrite{Table: s.Table, Columns: s.Columns, Query: s.Query}
}
