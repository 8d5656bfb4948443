package engine

import (
	"sluice/internal/catalog"
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

// insertWrite is what INSERT STREAM s runs.
func insertWrite(s *sql.InsertStream) streamWrite {
	return streamWrite{Table: s.Table, Columns: s.Columns, Query: s.Query}
}
