package cli

import (
	"strings"

	"sluice/internal/ppl"
	"sluice/internal/sql"
)

// piece is one complete statement of the input, as text, and the input
// line it starts on. It is parsed once, when its turn comes, so the
// statements before a syntax error still run.
type piece struct {
	text string
	line int
	ppl  bool // the text is a PPL query, not SQL
}

// parse parses the statement.
func (p piece) parse() (sql.Statement, error) {
	if p.ppl {
		return ppl.Statement(p.text)
	}
	return sql.ParseOne(p.text)
}

// asPPL marks pieces as PPL queries when lang is "ppl".
func asPPL(pieces []piece, lang string) []piece {
	if lang == LangPPL {
		for i := range pieces {
			pieces[i].ppl = true
		}
	}
	return pieces
}

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
