package sql

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
)

var errTODO = errors.New("sql: parser not implemented yet")

// Parse reads a script: statements separated by ';'.
func Parse(text string) ([]Statement, error) { return nil, errTODO }

// ParseOne reads exactly one statement (a trailing ';' is allowed).
func ParseOne(text string) (Statement, error) { return nil, errTODO }

// ParseExpr reads one expression.
func ParseExpr(text string) (Expr, error) { return nil, errTODO }

// ParseType reads a SQL type such as STRUCT<a: INT, b: ARRAY<STRING>>.
func ParseType(text string) (arrow.DataType, error) { return nil, errTODO }

// SplitStatements splits text into complete statements (honouring quotes
// and comments) and reports whether trailing text is an unfinished one.
func SplitStatements(text string) ([]string, bool) { return nil, false }
