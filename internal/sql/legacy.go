package sql

import (
	"strings"
	"unicode/utf8"
)

// UpgradeLegacyText rewrites SQL text that a binary before Spark's string
// escaping printed or stored (catalog format 2 and older) so that today's
// parser reads it with its old meaning: every string literal is read the
// old way, where ” inside a literal is one quote and an unknown escape
// keeps its backslash, and printed again with QuoteString when today's
// lexer would read it otherwise. Everything else is kept byte for byte. Text the old lexer refuses is returned
// unchanged, with ok false: parsing it reports the error.
func UpgradeLegacyText(text string) (string, bool) {
	lx := newLexer(text)
	lx.legacy = true
	var b strings.Builder
	last := 0
	for {
		t := lx.next()
		switch t.kind {
		case tkError:
			return text, false
		case tkEOF:
			b.WriteString(text[last:])
			return b.String(), true
		case tkString:
			if src := text[t.off:t.end]; readsAs(src, t.text) {
				continue
			}
			b.WriteString(text[last:t.off])
			b.WriteString(QuoteString(t.text))
			last = t.end
		}
	}
}

// lexStringLegacy reads '...' with ” doubling and backslash escapes, as
// binaries before Spark's escaping did. An unknown escape keeps its
// backslash.
func (lx *lexer) lexStringLegacy(p Pos, off int, q byte) token {
	lx.advance()
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) {
			return lx.errTok(p, off, "unterminated string literal")
		}
		c := lx.src[lx.off]
		switch {
		case c == q:
			lx.advance()
			if lx.peekByte(0) == q {
				lx.advance()
				b.WriteByte(q)
				continue
			}
			return token{kind: tkString, text: b.String(), pos: p, off: off, end: lx.off}
		case c == '\\':
			ep := lx.pos()
			lx.advance()
			if lx.off >= len(lx.src) {
				return lx.errTok(p, off, "unterminated string literal")
			}
			e := lx.src[lx.off]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'u':
				lx.advance()
				var v rune
				for i := 0; i < 4; i++ {
					d := hexVal(lx.peekByte(0))
					if d < 0 {
						return lx.errTok(ep, off, `invalid escape: \u needs 4 hex digits`)
					}
					v = v*16 + rune(d)
					lx.advance()
				}
				if !utf8.ValidRune(v) {
					return lx.errTok(ep, off, `invalid escape: \u`+lx.src[lx.off-4:lx.off]+" is not a character")
				}
				b.WriteRune(v)
				continue
			default:
				b.WriteByte('\\')
				continue // the character itself is read by the loop
			}
			lx.advance()
		default:
			r, size := utf8.DecodeRuneInString(lx.src[lx.off:])
			if r == utf8.RuneError && size <= 1 {
				return lx.errTok(lx.pos(), off, "invalid UTF-8 in string literal")
			}
			b.WriteString(lx.src[lx.off : lx.off+size])
			lx.advance()
		}
	}
}

// readsAs says whether today's lexer reads src as one string literal
// whose value is v.
func readsAs(src, v string) bool {
	t := newLexer(src).next()
	return t.kind == tkString && t.end == len(src) && t.text == v
}
