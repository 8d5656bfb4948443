package sql

// Insert is INSERT INTO name [PARTITION (...)] [(cols) | BY NAME] query
// or INSERT OVERWRITE [TABLE] name [PARTITION (...)] [(cols) | BY NAME] query; query may be
// a VALUES list (a *Values body).
type Insert struct {
	StmtBase
	Overwrite bool
	Table     string
	// Partition is the PARTITION (k = v, ...) clause; nil when absent.
	Partition []*PartitionValue
	Columns   []string // nil when not listed
	// ByName is BY NAME in place of a column list: the query's columns
	// go to the table's of the same names.
	ByName bool
	Query  *Query
}

// PartitionValue is one entry of INSERT's PARTITION clause: k = value
// (a static partition, its rows all get value) or k alone (a dynamic
// one, Value nil: each row's own k).
type PartitionValue struct {
	Column string
	Value  Expr
}

// InsertStream is INSERT STREAM INTO name [(cols)] query WITH (options):
// a streaming query that runs until stopped. With holds name, trigger,
// checkpoint_location, output_mode, ...
type InsertStream struct {
	StmtBase
	Table   string
	Columns []string
	Query   *Query
	With    Options
}
