package ppl

import "strings"

// mysqlFormat maps PPL's (MySQL's) date_format specifiers onto the
// registry's Java/Spark pattern letters.
var mysqlFormat = map[byte]string{
	'Y': "yyyy", 'y': "yy", 'm': "MM", 'c': "M", 'd': "dd", 'e': "d",
	'H': "HH", 'k': "H", 'h': "hh", 'I': "hh", 'l': "h", 'i': "mm",
	's': "ss", 'S': "ss", 'f': "SSSSSS", 'p': "a", 'b': "MMM", 'M': "MMMM",
	'a': "EEE", 'W': "EEEE", 'j': "DDD", 'T': "HH:mm:ss", 'r': "hh:mm:ss a",
}

// javaPattern translates a MySQL format ("%Y-%m-%d %H:%i") into a Java
// pattern ("yyyy-MM-dd HH:mm"); letters outside specifiers are quoted.
// ok is false when the text has no % at all: then it already is one.
func javaPattern(f string) (string, bool) {
	if !strings.Contains(f, "%") {
		return f, false
	}
	var b strings.Builder
	quoted := false
	lit := func(c byte) {
		isLetter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		switch {
		case c == '\'':
			b.WriteString("''")
		case isLetter && !quoted:
			b.WriteByte('\'')
			quoted = true
			b.WriteByte(c)
		case !isLetter && quoted:
			b.WriteByte('\'')
			quoted = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			lit(f[i])
			continue
		}
		i++
		if p, ok := mysqlFormat[f[i]]; ok {
			if quoted {
				b.WriteByte('\'')
				quoted = false
			}
			b.WriteString(p)
			continue
		}
		lit(f[i])
	}
	if quoted {
		b.WriteByte('\'')
	}
	return b.String(), true
}
