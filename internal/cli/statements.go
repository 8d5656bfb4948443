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
	// line and col are where text starts in the input (col 1-based);
	// line is then moved past leading comments, to the statement's first
	// token, which is the line an error names.
	line, col int
	start     int  // the input line text starts on
	ppl       bool // the text is a PPL query, not SQL
}

// parse parses the statement, its positions the input's.
func (p piece) parse() (sql.Statement, error) {
	if p.ppl {
		return ppl.Statement(p.text)
	}
	return sql.ParseOneAt(p.text, sql.Pos{Line: p.start, Col: p.col})
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
	line, lineAt := first, 0 // line of text[lineAt:], counted as pos moves
	for _, s := range stmts {
		pc := piece{text: s, line: line, start: line, col: 1}
		if at := strings.Index(text[pos:], s); at >= 0 {
			at += pos
			for i := lineAt; i < at; i++ {
				if text[i] == '\n' {
					line++
					lineAt = i + 1
				}
			}
			pc.start = line
			pc.col = 1 + at - max(strings.LastIndexByte(text[:at], '\n')+1, 0)
			pc.line = line + leadingCommentLines(s)
			pos = at + len(s)
		}
		pieces = append(pieces, pc)
	}
	return pieces, unfinished
}

// leadingCommentLines counts the line breaks in the blanks and comments
// that open s: the statement's first token is that many lines down.
func leadingCommentLines(s string) int {
	n, i := 0, 0
	for i < len(s) {
		switch {
		case s[i] == '\n':
			n++
			i++
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\r':
			i++
		case strings.HasPrefix(s[i:], "--"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return n
			}
			n += strings.Count(s[i:i+2+end], "\n")
			i += 2 + end + 2
		default:
			return n
		}
	}
	return n
}
