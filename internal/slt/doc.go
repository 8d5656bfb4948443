// Package slt runs sqllogictest-style files, Sluice's main end-to-end
// test suite (testdata/slt/**/*.slt, run by TestSLT).
//
// # File format
//
// A file is a list of records separated by blank lines. Lines starting
// with '#' are comments and are kept as written by -update.
//
//	# skip: window functions are not planned yet
//
//	statement ok
//	CREATE TABLE t (a INT, b STRING) USING json LOCATION '${TESTDATA}/data/json/ab.json'
//
//	statement error table t already exists
//	CREATE TABLE t (a INT) USING json LOCATION '${TMPDIR}/x.json'
//
//	query IT rowsort
//	SELECT a, b FROM t
//	----
//	1 | hello
//	2 | NULL
//	3 | (empty)
//
//	query explain
//	EXPLAIN SELECT a FROM t WHERE a > 1
//	----
//	Projection: a
//	  Filter: a > 1
//	    Scan: t
//
// A "# skip: <reason>" line before the first record skips the whole file
// (TestSLT reports it with t.Skip; SLT_NOSKIP=1 runs it anyway), so cases
// can be written ahead of the engine.
//
// statement ok: the SQL (every line up to the next blank line) must
// succeed; any rows it returns are ignored.
//
// statement error <pattern>: the SQL must fail. The error message must
// contain <pattern>, or match it as a regular expression; an empty
// pattern accepts any error.
//
// query <types> [nosort|rowsort|valuesort]: the SQL, then a line "----",
// then the expected rows, up to the next blank line. <types> has one
// letter per result column:
//
//	I  integer (INT, BIGINT)
//	R  real (DOUBLE, DECIMAL)
//	T  text (STRING)
//	B  boolean
//	D  date or timestamp
//	?  anything else (arrays, structs, maps, intervals, binary); in the
//	   file, '?' also accepts any column type
//
// A wrong count or kind of column fails the record. Rows are compared in
// the order the engine returned them (nosort, the default), sorted as
// text (rowsort), or as one sorted value per line (valuesort).
//
// "query <types> [sort] ppl" marks a query written in PPL (testdata/ppl):
// its text runs as the SQL statement PPL '<text>'.
//
// A query header may end with "lines <regexp>": only the result lines
// the regexp matches are compared, for SHOW and DESCRIBE output that also
// carries timings or rates:
//
//	query TT rowsort lines ^(late_rows_dropped|watermark)
//	DESCRIBE STREAM s
//
// query explain: the expected lines are the text of every value returned,
// split at newlines and kept verbatim apart from trailing spaces: golden
// plans for EXPLAIN, whether the engine returns one row per plan line or
// the whole plan in one value.
//
// # Streaming records
//
// write <path>: the following lines, up to the next blank line, become
// the file ${TMPDIR}/<path> (folders created, variables substituted,
// renamed into place whole), so files can land in a table's location
// between runs of a stream. The path must stay inside ${TMPDIR}.
//
//	write in/b.json
//	{"ip": "a", "ts": "2026-11-30T10:06:00Z"}
//
// restart: reopen the engine over the same data directory, dropping all
// in-memory state, as a process restarted after a crash. Files under
// testdata/slt/streaming/ run twice: straight through, where restart does
// nothing, then on fresh directories with a restart at every restart
// record. Every record must pass in both passes and do the same thing in
// both (the same rows, the same error). Streams run in the foreground with
// trigger = 'once' (one epoch) or 'available_now' in a statement ok.
//
// # Values
//
// One row per line, values separated by " | ". NULL is NULL, the empty
// string is (empty), newlines and tabs inside a value are written \n and
// \t. Every value is spelled as the CLI prints it (types.Text:
// types.FormatValue, Spark's style), except that DOUBLEs are first rounded to 12 significant
// digits, so a sum that differs in the last bits still reads 0.3; they
// then print as 88.0, 72.2916666667, 1.0E10. Timestamps read
// "2026-11-30 12:00:00" (with a fraction only when there is one), dates
// "2026-11-30", nested values as JSON, booleans true/false.
//
// # Substitutions
//
// ${TESTDATA} is the absolute path of the repository's testdata
// directory, ${TMPDIR} a fresh empty directory per file and ${DATADIR}
// the engine's data directory (catalog, checkpoints). In actual output
// (rows and errors) those paths are written back as ${TESTDATA},
// ${TMPDIR} and ${DATADIR} before comparing, so expectations do not
// depend on where the repository or the temp dirs live.
//
// Each file runs on a fresh engine with its own temporary data directory
// and now() fixed at 2026-11-30 12:00:00 UTC.
//
// # Updating
//
//	go test ./internal/slt -update                   # every file
//	go test ./internal/slt -run 'TestSLT/query/' -update
//
// rewrites the expected rows, column types and error patterns in place,
// keeping comments, SQL and layout. Records that fail for another reason
// (a statement ok that errors, a query that errors) still fail.
package slt
