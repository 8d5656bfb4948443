package ppl

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"sluice/internal/sql"
)

type tokKind int

const (
	tkEOF tokKind = iota
	tkIdent
	tkNumber
	tkString
	tkDuration // a number with a unit: 1h, 30m, 5ms
	tkOp
	tkError
)

type token struct {
	kind   tokKind
	text   string // identifiers unquoted, strings unescaped
	quoted bool   // a `back-quoted` identifier
	pos    sql.Pos
	off    int
	end    int
}

type lexer struct {
	src       string
	off       int
	line, col int
	// at, when set, is the position of each byte offset of src (and of
	// its end): the text came out of a quoted literal whose escapes make
	// positions differ from counting src's own runes.
	at []sql.Pos
}

// tokenize splits src into tokens, starting at position at; it stops at
// the first error, which becomes a tkError token.
func tokenize(src string, at sql.Pos, posMap []sql.Pos) []token {
	lx := &lexer{src: src, line: at.Line, col: at.Col, at: posMap}
	var out []token
	for {
		t := lx.next()
		out = append(out, t)
		if t.kind == tkEOF || t.kind == tkError {
			return out
		}
	}
}

func (lx *lexer) pos() sql.Pos {
	if lx.at != nil && lx.off < len(lx.at) {
		return lx.at[lx.off]
	}
	return sql.Pos{Line: lx.line, Col: lx.col}
}

func (lx *lexer) peek(n int) byte {
	if lx.off+n < len(lx.src) {
		return lx.src[lx.off+n]
	}
	return 0
}

func (lx *lexer) bump() rune {
	r, size := utf8.DecodeRuneInString(lx.src[lx.off:])
	lx.off += size
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
	return r
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '@' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var twoCharOps = []string{"==", "!=", "<>", "<=", ">="}

// skipSpace skips blanks and comments (/* ... */ and // to the end of
// the line); it returns an error token for an unterminated comment.
func (lx *lexer) skipSpace() *token {
	for lx.off < len(lx.src) {
		switch {
		case strings.HasPrefix(lx.src[lx.off:], "/*"):
			p, off := lx.pos(), lx.off
			end := strings.Index(lx.src[lx.off+2:], "*/")
			if end < 0 {
				for lx.off < len(lx.src) {
					lx.bump()
				}
				return &token{kind: tkError, text: "unterminated comment", pos: p, off: off, end: lx.off}
			}
			for stop := lx.off + 2 + end + 2; lx.off < stop; {
				lx.bump()
			}
			continue
		case strings.HasPrefix(lx.src[lx.off:], "//"):
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.bump()
			}
			continue
		}
		r, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
		if !unicode.IsSpace(r) {
			break
		}
		lx.bump()
	}
	return nil
}

func (lx *lexer) next() token {
	if t := lx.skipSpace(); t != nil {
		return *t
	}
	p, off := lx.pos(), lx.off
	mk := func(k tokKind, text string) token {
		return token{kind: k, text: text, pos: p, off: off, end: lx.off}
	}
	if lx.off >= len(lx.src) {
		return mk(tkEOF, "")
	}
	c := lx.src[lx.off]
	switch {
	case isDigit(c) || c == '.' && isDigit(lx.peek(1)):
		for isDigit(lx.peek(0)) {
			lx.bump()
		}
		if lx.peek(0) == '.' && isDigit(lx.peek(1)) {
			lx.bump()
			for isDigit(lx.peek(0)) {
				lx.bump()
			}
		}
		if (lx.peek(0) == 'e' || lx.peek(0) == 'E') && (isDigit(lx.peek(1)) || (lx.peek(1) == '-' || lx.peek(1) == '+') && isDigit(lx.peek(2))) {
			lx.bump()
			lx.bump()
			for isDigit(lx.peek(0)) {
				lx.bump()
			}
		}
		if isIdentStart(lx.peek(0)) {
			for isIdentPart(lx.peek(0)) {
				lx.bump()
			}
			return mk(tkDuration, lx.src[off:lx.off])
		}
		return mk(tkNumber, lx.src[off:lx.off])
	case isIdentStart(c):
		for lx.off < len(lx.src) && isIdentPart(lx.src[lx.off]) {
			lx.bump()
		}
		lx.percFraction(lx.src[off:lx.off])
		return mk(tkIdent, lx.src[off:lx.off])
	case c == '`':
		lx.bump()
		var b strings.Builder
		for {
			if lx.off >= len(lx.src) {
				return token{kind: tkError, text: "unterminated quoted name", pos: p, off: off, end: lx.off}
			}
			r := lx.bump()
			if r == '`' {
				if lx.peek(0) == '`' {
					lx.bump()
					b.WriteByte('`')
					continue
				}
				break
			}
			b.WriteRune(r)
		}
		t := mk(tkIdent, b.String())
		t.quoted = true
		return t
	case c == '\'' || c == '"':
		lx.bump()
		var b strings.Builder
		for {
			if lx.off >= len(lx.src) {
				return token{kind: tkError, text: "unterminated string", pos: p, off: off, end: lx.off}
			}
			r := lx.bump()
			if r == rune(c) {
				if lx.peek(0) == c {
					lx.bump()
					b.WriteByte(c)
					continue
				}
				break
			}
			if r == '\\' && lx.off < len(lx.src) {
				e := lx.bump()
				switch e {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '\\', '\'', '"':
					b.WriteRune(e)
				default:
					// Regular expressions keep their escapes: \d stays \d.
					b.WriteByte('\\')
					b.WriteRune(e)
				}
				continue
			}
			b.WriteRune(r)
		}
		return mk(tkString, b.String())
	}
	for _, op := range twoCharOps {
		if strings.HasPrefix(lx.src[lx.off:], op) {
			lx.bump()
			lx.bump()
			return mk(tkOp, op)
		}
	}
	// ? is a search wildcard (search severityText=ERR?R); { } are in
	// spath paths (list{0}).
	if strings.ContainsRune("|,()[]=<>+-*/%.:?{}", rune(c)) {
		lx.bump()
		return mk(tkOp, string(c))
	}
	r := lx.bump()
	return token{kind: tkError, text: "unexpected character " + quoteRune(r), pos: p, off: off, end: lx.off}
}

func quoteRune(r rune) string { return "'" + string(r) + "'" }

// percFraction takes the fraction of a percentile shortcut into its name
// (perc99.5(x), p99.9(x)) when a call follows, so it is one identifier.
func (lx *lexer) percFraction(name string) {
	if !percShortcut.MatchString(name) || lx.peek(0) != '.' || !isDigit(lx.peek(1)) {
		return
	}
	n := 1
	for isDigit(lx.peek(n)) {
		n++
	}
	if lx.peek(n) != '(' {
		return
	}
	for ; n > 0; n-- {
		lx.bump()
	}
}
