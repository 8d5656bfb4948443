package sql

// ReadOnly reports whether running st can change nothing a server keeps:
// no table, file, index, stream, view or setting. It is the line between
// `sluice serve`'s read and admin roles, drawn on the parsed statement,
// never its text, so comments, case or a second keyword cannot move it.
//
// Read-only: SELECT, SHOW ..., DESCRIBE ..., SHOW CREATE TABLE, and
// EXPLAIN of anything except EXPLAIN ANALYZE of a statement that is not
// read-only itself (ANALYZE runs it). SET and RESET are not: settings are
// shared by every client of a server. A statement type added later is not
// read-only until it is listed here: the safe default.
func ReadOnly(st Statement) bool {
	switch s := st.(type) {
	case *SelectStmt, *ShowTables, *DescribeTable, *ShowCreateTable,
		*ShowMaterializedViews, *DescribeMaterializedView,
		*ShowStreams, *DescribeStream, *ShowSettings:
		return true
	case *Explain:
		return s.Mode != ExplainAnalyze || ReadOnly(s.Stmt)
	case *ShowIndexes, *ShowFlintIndexes, *AnalyzeSkippingIndex:
		return true
	case *FlintIndexCommand:
		return s.Action == IndexDescribe
	}
	return false
}
