package cli

import (
	"strings"

	"sluice/internal/sql"
)

// piece is one complete statement of the input, as text, and the input
// line it starts on. It is parsed once, when its turn comes, so the
// statements before a syntax error still run.
type piece struct {
	text string
	line int
}

// parse parses the statement.
func (p piece) parse() (sql.Statement, error) { return sql.ParseOne(p.text) }

// splitPieces splits text, whose first line is line first of the input,
// at the semicolons that end statements (sql.SplitStatements: quotes and
// comments honoured), and reports whether an unfinished statement
// follows the last one.
func splitPieces(text string, first int) ([]piece, bool) {
	stmts, unfinished := sql.SplitStatements(text)
	pieces := make([]piece, 0, len(stmts))
	pos := 0
	for _, s := range stmts {
		line := first
		if at := strings.Index(text[pos:], s); at >= 0 {
			at += pos
			line = first + strings.Count(text[:at], "\n")
			pos = at + len(s)
		}
		pieces = append(pieces, piece{text: s, line: line})
	}
	return pieces, unfinished
}
