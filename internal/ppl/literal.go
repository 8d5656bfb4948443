package ppl

import (
	"unicode/utf8"

	"sluice/internal/sql"
)

// literalPositions maps each byte offset of text, the value of a SQL
// string literal, to the statement position of what produced it in raw,
// the literal as written (starting at at): ” is one quote, \n and the
// like one byte, \uXXXX one character, an unknown escape keeps both
// bytes (internal/sql's rules). It returns nil if raw does not produce
// text, so positions fall back to counting text.
func literalPositions(text, raw string, at sql.Pos) []sql.Pos {
	m := make([]sql.Pos, 0, len(text)+1)
	line, col := at.Line, at.Col
	i := 0
	step := func(n int) {
		for k := 0; k < n && i < len(raw); {
			r, size := utf8.DecodeRuneInString(raw[i:])
			i += size
			k += size
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
	}
	emit := func(n int) {
		p := sql.Pos{Line: line, Col: col}
		for k := 0; k < n; k++ {
			m = append(m, p)
		}
	}
	for i < len(raw) {
		c := raw[i]
		switch {
		case c == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
			emit(1)
			step(2)
		case c == '\\' && i+1 < len(raw):
			switch raw[i+1] {
			case 'n', 't', 'r', '0', '\\', '\'', '"':
				emit(1)
				step(2)
			case 'u':
				if i+6 > len(raw) {
					return nil
				}
				var v rune
				for _, h := range raw[i+2 : i+6] {
					v = v*16 + rune(hexDigit(byte(h)))
				}
				emit(utf8.RuneLen(v))
				step(6)
			default:
				// The backslash stays; what follows is read as usual.
				emit(1)
				step(1)
			}
		default:
			_, size := utf8.DecodeRuneInString(raw[i:])
			emit(size)
			step(size)
		}
	}
	if len(m) != len(text) {
		return nil
	}
	return append(m, sql.Pos{Line: line, Col: col})
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 0
}
