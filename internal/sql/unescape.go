package sql

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// unescapeSpark is Spark 3.5's unescapeSQLString for the text between a
// literal's quotes: \uXXXX and \UXXXXXXXX are code points, \ then three
// octal digits (the first 0-3) a byte value, \0 \b \n \r \t \Z \' \" \\
// the usual characters, \% and \_ stay as written (LIKE escapes), and
// any other escaped character stands for itself (\d is d: a regular
// expression's \d is written '\\d' or r'\d'). A code point that is not
// a character (a lone surrogate) reads as ?, as Spark's UTF-8 does.
func unescapeSpark(b string) string {
	if !strings.Contains(b, `\`) {
		return b
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' || i+1 == len(b) {
			sb.WriteByte(c)
			i++
			continue
		}
		i++
		e := b[i]
		switch {
		case e == 'u' && allHex(b, i+1, 4):
			v := hexRune(b[i+1 : i+5])
			i += 5
			if v >= 0xD800 && v < 0xDC00 && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' && allHex(b, i+2, 4) {
				if lo := hexRune(b[i+2 : i+6]); lo >= 0xDC00 && lo < 0xE000 {
					v = 0x10000 + (v-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			writeCodePoint(&sb, v)
		case e == 'U' && allHex(b, i+1, 8):
			writeCodePoint(&sb, hexRune(b[i+1:i+9]))
			i += 9
		case e >= '0' && e <= '3' && i+3 <= len(b) && isOctal(b[i+1]) && isOctal(b[i+2]):
			sb.WriteRune(rune(e-'0')*64 + rune(b[i+1]-'0')*8 + rune(b[i+2]-'0'))
			i += 3
		default:
			r, size := utf8.DecodeRuneInString(b[i:])
			i += size
			switch r {
			case '0':
				sb.WriteByte(0)
			case 'b':
				sb.WriteByte('\b')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'Z':
				sb.WriteByte(0x1A)
			case '%', '_':
				sb.WriteByte('\\')
				sb.WriteRune(r)
			default:
				sb.WriteString(b[i-size : i])
			}
		}
	}
	return sb.String()
}

func allHex(b string, from, n int) bool {
	if from+n > len(b) {
		return false
	}
	for i := from; i < from+n; i++ {
		if hexVal(b[i]) < 0 {
			return false
		}
	}
	return true
}

func hexRune(h string) rune {
	v, _ := strconv.ParseUint(h, 16, 32)
	if v > utf8.MaxRune {
		return -1
	}
	return rune(v)
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func writeCodePoint(sb *strings.Builder, v rune) {
	if !utf8.ValidRune(v) {
		sb.WriteByte('?')
		return
	}
	sb.WriteRune(v)
}
