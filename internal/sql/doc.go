// Package sql reads Sluice's SQL dialect (Spark SQL and OpenSearch Flint
// flavour) into an unbound syntax tree.
//
// A hand-written lexer feeds a recursive-descent parser; expressions use
// precedence climbing. Names are not resolved here: a dotted name is kept
// as a list of parts for the binder (internal/plan) to decide whether
// geo.city is table geo's column city or column geo's field city. Types
// are parsed straight into arrow.DataType through internal/types.
//
// Every node has a 1-based Pos and a String method printing canonical SQL
// that parses back to the same tree, which EXPLAIN and the catalog use.
// Every statement keeps its source Text. Errors are *Error values with a
// line, a column, and what was expected:
//
//	stmts, err := sql.Parse("SELECT status, count(*) AS n FROM logs GROUP BY status; SHOW TABLES")
//	// stmts[0].(*sql.SelectStmt).Query.Body.(*sql.Select).Items[1].Alias == "n"
//	// stmts[1] is a *sql.ShowTables
//
//	_, err = sql.Parse("SELECT a\nFROM t WHERE (b")
//	// err.Error() == "syntax error at line 2:16: expected ')' but found end of input"
//
//	t, _ := sql.ParseType("STRUCT<city: STRING, tags: ARRAY<STRING>>")
//	// types.SQLName(t) == "STRUCT<city: STRING, tags: ARRAY<STRING>>"
//
// Reserved words (SELECT, FROM, JOIN, LEFT, ...; see keywords.go) need
// back-quotes to be names; the statement words (TABLE, STREAM, DATE,
// TIMESTAMP, INTERVAL, ...) are contextual, so a column called date or
// timestamp needs none. Nesting deeper than 1000 levels is an error, not a
// stack overflow.
//
// # Building trees
//
// build.go has constructors (NewSelect, Col, TableRef, NewCall, Alias,
// SubqueryFrom) for the queries the engine makes itself: covering and
// skipping indexes, a view's id column. It builds them as trees, never as
// SQL text to parse (internal/archtest/reparse_test.go checks it).
package sql
