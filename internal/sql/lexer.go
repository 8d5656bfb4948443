package sql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind int

const (
	tkEOF    tokKind = iota
	tkIdent          // a word; quoted says whether it was `back-quoted` or "double-quoted"
	tkString         // '...'; text is the unescaped value
	tkNumber         // text is as written; num says integer, decimal or float
	tkOp             // punctuation and operators; text is the operator
	tkBinary         // X'0A1B'; text is the hex digits, an even count
	tkError          // a lexical error; text is the message
)

type token struct {
	kind   tokKind
	text   string
	quoted bool
	num    LitKind // LitInteger, LitDecimal or LitFloat for tkNumber
	pos    Pos
	off    int // byte offset of the first byte
	end    int // byte offset just past the last byte
}

// lexer turns text into tokens. It stops at the first error, which it
// reports as a tkError token so that the parser can report it in order
// with its own errors.
type lexer struct {
	src  string
	off  int
	line int
	col  int
	// legacy reads string literals as binaries before Spark's escaping
	// did ('' is a quote): only for stored catalog text (legacy.go).
	legacy bool
	// afterPPL: the last token was the word PPL.
	afterPPL bool
}

func newLexer(src string) *lexer { return &lexer{src: src, line: 1, col: 1} }

// tokenize lexes all of src. The last token is tkEOF or tkError.
func tokenize(src string) []token { return tokenizeAt(src, Pos{Line: 1, Col: 1}) }

// tokenizeAt lexes src as text that starts at position at of a larger
// input (a statement of a script), so every position is the input's.
func tokenizeAt(src string, at Pos) []token {
	lx := newLexer(src)
	lx.line, lx.col = at.Line, at.Col
	out := make([]token, 0, len(src)/4+2)
	for {
		t := lx.next()
		out = append(out, t)
		if t.kind == tkEOF || t.kind == tkError {
			return out
		}
	}
}

func (lx *lexer) pos() Pos { return Pos{Line: lx.line, Col: lx.col} }

// peekByte returns the byte n places ahead without consuming it (0 at
// end of input).
func (lx *lexer) peekByte(n int) byte {
	if lx.off+n < len(lx.src) {
		return lx.src[lx.off+n]
	}
	return 0
}

// advance consumes one rune, keeping line and column.
func (lx *lexer) advance() rune {
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

func (lx *lexer) errTok(p Pos, off int, msg string) token {
	return token{kind: tkError, text: msg, pos: p, off: off, end: lx.off}
}

// skipSpace skips blanks and comments; it returns an error token for an
// unterminated block comment.
func (lx *lexer) skipSpace() (token, bool) {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.advance()
		case c == '-' && lx.peekByte(1) == '-':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance()
			}
		case c == '/' && lx.peekByte(1) == '*':
			p, off := lx.pos(), lx.off
			lx.advance()
			lx.advance()
			for {
				if lx.off >= len(lx.src) {
					return lx.errTok(p, off, "unterminated comment"), false
				}
				if lx.src[lx.off] == '*' && lx.peekByte(1) == '/' {
					lx.advance()
					lx.advance()
					break
				}
				lx.advance()
			}
		default:
			return token{}, true
		}
	}
	return token{}, true
}

// twoCharOps are the operators of two characters; the lexer tries them
// before single characters.
var twoCharOps = map[string]bool{
	"==": true, "<>": true, "!=": true, "<=": true, ">=": true, "||": true, "::": true, "->": true,
	"<<": true, ">>": true,
}

// oneCharOps: & | ^ ~ are the bitwise operators and ! is NOT, as in Spark.
const oneCharOps = "=<>+-*/%.,()[];:&|^~!"

// next reads the next token. The literal of PPL '...' is read the
// legacy way (” is a quote, backslashes kept before other characters):
// it holds PPL, whose strings follow OpenSearch's rules, not Spark's.
func (lx *lexer) next() token {
	t := lx.scan()
	lx.afterPPL = t.kind == tkIdent && !t.quoted && strings.EqualFold(t.text, "PPL")
	return t
}

func (lx *lexer) scan() token {
	if t, ok := lx.skipSpace(); !ok {
		return t
	}
	p, off := lx.pos(), lx.off
	if lx.off >= len(lx.src) {
		return token{kind: tkEOF, pos: p, off: off, end: off}
	}
	c := lx.src[lx.off]
	switch {
	case c == '\'' || c == '"':
		// "..." is a string, as in Spark (spark.sql.ansi.doubleQuotedIdentifiers
		// is off by default); names are quoted with backticks.
		return lx.lexString(p, off, c)
	case c == '`':
		return lx.lexQuotedIdent(p, off, c)
	case c >= '0' && c <= '9' || c == '.' && isDigit(lx.peekByte(1)):
		return lx.lexNumber(p, off)
	}
	if strings.HasPrefix(lx.src[off:], "<=>") || strings.HasPrefix(lx.src[off:], ">>>") {
		lx.advance()
		lx.advance()
		lx.advance()
		return token{kind: tkOp, text: lx.src[off:lx.off], pos: p, off: off, end: lx.off}
	}
	if (c == 'r' || c == 'R') && (lx.peekByte(1) == '\'' || lx.peekByte(1) == '"') && !lx.legacy {
		return lx.lexRawString(p, off)
	}
	if (c == 'x' || c == 'X') && lx.peekByte(1) == '\'' {
		return lx.lexHex(p, off)
	}
	if off+2 <= len(lx.src) && twoCharOps[lx.src[off:off+2]] {
		lx.advance()
		lx.advance()
		return token{kind: tkOp, text: lx.src[off:lx.off], pos: p, off: off, end: lx.off}
	}
	if strings.IndexByte(oneCharOps, c) >= 0 {
		lx.advance()
		return token{kind: tkOp, text: lx.src[off:lx.off], pos: p, off: off, end: lx.off}
	}
	r, size := utf8.DecodeRuneInString(lx.src[lx.off:])
	if r == utf8.RuneError && size <= 1 {
		return lx.errTok(p, off, "invalid UTF-8 in input")
	}
	if isIdentStart(r) {
		for lx.off < len(lx.src) {
			r, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
			if !isIdentPart(r) {
				break
			}
			lx.advance()
		}
		return token{kind: tkIdent, text: lx.src[off:lx.off], pos: p, off: off, end: lx.off}
	}
	lx.advance()
	if !unicode.IsPrint(r) {
		return lx.errTok(p, off, fmt.Sprintf("unexpected character %U", r))
	}
	return lx.errTok(p, off, "unexpected character "+quoteFound(string(r)))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || r >= '0' && r <= '9' || r > 127 && unicode.IsDigit(r)
}

func (lx *lexer) lexNumber(p Pos, off int) token {
	kind := LitInteger
	for isDigit(lx.peekByte(0)) {
		lx.advance()
	}
	if lx.peekByte(0) == '.' {
		kind = LitDecimal
		lx.advance()
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
	}
	if c := lx.peekByte(0); c == 'e' || c == 'E' {
		n := 1
		if s := lx.peekByte(1); s == '+' || s == '-' {
			n = 2
		}
		if !isDigit(lx.peekByte(n)) {
			for i := 0; i < n; i++ {
				lx.advance()
			}
			return lx.errTok(p, off, "invalid number "+quoteFound(lx.src[off:lx.off])+": exponent has no digits")
		}
		kind = LitFloat
		for i := 0; i < n; i++ {
			lx.advance()
		}
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
	}
	return token{kind: tkNumber, num: kind, text: lx.src[off:lx.off], pos: p, off: off, end: lx.off}
}

// lexString reads '...' or "..." as Spark does (its default,
// spark.sql.parser.escapedStringLiterals=false): the first unescaped
// quote ends the literal, so 'it”s' is two literals, which the parser
// joins into its, and a backslash escapes the next character
// (unescapeSpark). A legacy lexer (catalog text of older binaries) reads
// the old way instead (lexStringLegacy).
func (lx *lexer) lexString(p Pos, off int, q byte) token {
	if lx.legacy || lx.afterPPL {
		return lx.lexStringLegacy(p, off, q)
	}
	lx.advance()
	start := lx.off
	for {
		if lx.off >= len(lx.src) {
			return lx.errTok(p, off, "unterminated string literal")
		}
		c := lx.src[lx.off]
		if c == q {
			break
		}
		if c == '\\' {
			lx.advance()
			if lx.off >= len(lx.src) {
				return lx.errTok(p, off, "unterminated string literal")
			}
		}
		if r, size := utf8.DecodeRuneInString(lx.src[lx.off:]); r == utf8.RuneError && size <= 1 {
			return lx.errTok(lx.pos(), off, "invalid UTF-8 in string literal")
		}
		lx.advance()
	}
	body := lx.src[start:lx.off]
	lx.advance()
	return token{kind: tkString, text: unescapeSpark(body), pos: p, off: off, end: lx.off}
}

// lexRawString reads R'...' or R"...": no escapes, the first quote ends it.
func (lx *lexer) lexRawString(p Pos, off int) token {
	lx.advance()
	q := lx.src[lx.off]
	lx.advance()
	start := lx.off
	for lx.off < len(lx.src) && lx.src[lx.off] != q {
		if r, size := utf8.DecodeRuneInString(lx.src[lx.off:]); r == utf8.RuneError && size <= 1 {
			return lx.errTok(lx.pos(), off, "invalid UTF-8 in string literal")
		}
		lx.advance()
	}
	if lx.off >= len(lx.src) {
		return lx.errTok(p, off, "unterminated string literal")
	}
	body := lx.src[start:lx.off]
	lx.advance()
	return token{kind: tkString, text: body, pos: p, off: off, end: lx.off}
}

// lexHex reads X'0A1B', a BINARY literal; text is the hex digits, with
// a leading 0 added to an odd count as Spark does.
func (lx *lexer) lexHex(p Pos, off int) token {
	lx.advance()
	lx.advance()
	start := lx.off
	for lx.off < len(lx.src) && lx.src[lx.off] != '\'' {
		if hexVal(lx.src[lx.off]) < 0 {
			bad := lx.pos()
			lx.advance()
			return lx.errTok(bad, off, "invalid hex digit "+quoteFound(lx.src[lx.off-1:lx.off])+" in binary literal")
		}
		lx.advance()
	}
	if lx.off >= len(lx.src) {
		return lx.errTok(p, off, "unterminated binary literal")
	}
	digits := lx.src[start:lx.off]
	lx.advance()
	if len(digits)%2 == 1 {
		digits = "0" + digits
	}
	return token{kind: tkBinary, text: strings.ToUpper(digits), pos: p, off: off, end: lx.off}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// lexQuotedIdent reads `name` or "name"; the quote character doubled
// stands for itself.
func (lx *lexer) lexQuotedIdent(p Pos, off int, q byte) token {
	lx.advance()
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) {
			return lx.errTok(p, off, "unterminated quoted identifier")
		}
		c := lx.src[lx.off]
		if c == q {
			lx.advance()
			if lx.peekByte(0) == q {
				lx.advance()
				b.WriteByte(q)
				continue
			}
			if b.Len() == 0 {
				return lx.errTok(p, off, "empty quoted identifier")
			}
			return token{kind: tkIdent, quoted: true, text: b.String(), pos: p, off: off, end: lx.off}
		}
		r, size := utf8.DecodeRuneInString(lx.src[lx.off:])
		if r == utf8.RuneError && size <= 1 {
			return lx.errTok(lx.pos(), off, "invalid UTF-8 in quoted identifier")
		}
		b.WriteString(lx.src[lx.off : lx.off+size])
		lx.advance()
	}
}

// quoteFound prints source text for an error message, shortened.
func quoteFound(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		s = string(r[:37]) + "..."
	}
	return "'" + s + "'"
}
