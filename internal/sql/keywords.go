package sql

import "strings"

// reserved words cannot be bare identifiers (column names, aliases): they
// end an expression or a FROM item. Everything else that the grammar
// names (DATE, TIMESTAMP, INTERVAL, TABLE, STREAM, ...) is contextual, so
// columns called date or timestamp need no quoting.
var reserved = map[string]bool{
	"ALL": true, "AND": true, "AS": true, "BETWEEN": true, "BY": true,
	"CASE": true, "CAST": true, "CROSS": true, "DISTINCT": true, "ELSE": true,
	"END": true, "ESCAPE": true, "EXCEPT": true, "EXISTS": true, "FALSE": true,
	"FROM": true, "FULL": true, "GROUP": true, "HAVING": true, "ILIKE": true,
	"IN": true, "INNER": true, "INTERSECT": true, "IS": true, "JOIN": true,
	"LEFT": true, "LIKE": true, "LIMIT": true, "NOT": true, "NULL": true,
	"OFFSET": true, "ON": true, "OR": true, "ORDER": true, "OUTER": true,
	"REGEXP": true, "RIGHT": true, "RLIKE": true, "SELECT": true, "THEN": true,
	"TRUE": true, "UNION": true, "USING": true, "VALUES": true, "WHEN": true,
	"WHERE": true, "WITH": true,
}

func isReserved(name string) bool { return reserved[strings.ToUpper(name)] }

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
