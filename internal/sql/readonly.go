package sql

// ReadOnly reports whether running st can change nothing a server keeps:
// no table, file, index, stream, view or setting. It is the line between
// `sluice serve`'s read role and the others (WritesData draws write's), drawn on the parsed statement,
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
	case *UseDatabase, *ShowDatabases, *ShowTblProperties:
		// USE changes only the caller's own session; properties print
		// redacted, as SHOW CREATE TABLE does.
		return true
	case *Explain:
		return s.Mode != ExplainAnalyze || ReadOnly(s.Stmt)
	case *ShowIndexes, *ShowFlintIndexes, *AnalyzeSkippingIndex:
		return true
	case *ShowViews, *ShowColumns, *ShowPartitions, *ShowFunctions, *DescribeFunction:
		return true
	case *DescribeQuery, *DescribeDatabase, *ShowCatalogs, *ShowCurrentNamespace, *ShowTableExtended:
		// DESCRIBE QUERY binds its query without running it; reading a
		// file's schema is a read, checked as the query's would be.
		return true
	case *TableCommand:
		// Sluice caches nothing: REFRESH and UNCACHE only check the name.
		return s.Command == RefreshTable || s.Command == UncacheTable
	case *ClearCache:
		return true
	case *FlintIndexCommand:
		return s.Action == IndexDescribe
	}
	return false
}

// WritesData reports whether st, not read-only, changes only the rows of
// existing tables and the streams that feed them: INSERT (and INSERT
// OVERWRITE), TRUNCATE TABLE, INSERT STREAM, START STREAM, STOP STREAM, and EXPLAIN
// ANALYZE of one of them. It is what `sluice serve`'s write role adds to
// read; every other statement that is not ReadOnly (DDL, SET, views,
// indexes, databases) is admin's. Which files and locations such a
// statement may name is the engine's to check (engine.Session.RestrictData).
func WritesData(st Statement) bool {
	switch s := st.(type) {
	case *Insert, *InsertStream, *StartStream, *StopStream:
		return true
	case *TableCommand:
		return s.Command == TruncateTable
	case *Explain:
		return s.Mode == ExplainAnalyze && WritesData(s.Stmt)
	}
	return false
}
