// Package ppl is Sluice's second front end: OpenSearch's Piped Processing
// Language (source=t | where a > 1 | stats count() by b). A pipeline is
// parsed into commands (Parse) and translated into the SQL syntax tree
// (Pipeline.Translate), one nested SELECT per command, so the binder,
// planner and executor are the same as for SQL. Commands whose output
// depends on their input's columns (fields -, eval, rename, dedup, lookup,
// join) ask a Columns function, which the engine answers by binding the
// query built so far.
//
// Positions in errors and in the translated tree are those of the PPL
// text, shifted by where that text starts (ParseAt), so a PPL query
// inside a SQL statement (PPL '...') reports the statement's line:column.
package ppl
