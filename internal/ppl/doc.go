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
//
// # Files
//
// lexer.go and parser.go read a pipeline: parser.go's command switch names
// every command, and longer commands have a parse_<command>.go; ast.go
// holds the command types. translate.go's command switch turns each into
// SQL, longer ones in translate_<command>.go. A command that reads its
// input twice gets it as a CTE (translate_rows.go); Schema, like Columns,
// asks the engine for an input's columns (and types). The order the last
// sort left is tracked (translate_order.go) for reverse, dedup
// consecutive=true, streamstats and appendcol. The engine expands a PPL
// '...' query body (engine's ppl.go) before it qualifies names, so
// everything after sees SQL. Cases live in testdata/ppl/*.slt, run by
// internal/slt's TestPPL; docs/ppl.md lists the commands.
package ppl
