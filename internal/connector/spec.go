package connector

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// TableSpec is everything a connector needs to open a table: what the
// catalog stores for CREATE TABLE.
type TableSpec struct {
	Name string
	// Using names the connector: json, csv, parquet, opensearch, index, console.
	Using    string
	Location string
	// Options as written in OPTIONS (...), keys lower-cased.
	Options map[string]string
	// Schema holds the data columns then the partition columns. Hidden
	// metadata columns (_file, _row) are not part of it.
	Schema *arrow.Schema
	// PartitionBy names the Hive-style partition columns (year=2026/...).
	PartitionBy []string
}

// Metadata column names every file table offers without declaring them.
const (
	FileColumn = "_file"
	RowColumn  = "_row"
)

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

// Describer is a source or sink that explains itself in EXPLAIN, e.g.
// "files=12 pruned=30 columns=[status, size]".
type Describer interface {
	Describe() string
}
