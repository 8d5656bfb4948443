package connector

import (
	"github.com/apache/arrow-go/v18/arrow"
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
