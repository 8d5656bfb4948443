package cli

import "strings"

// splitStatements cuts a script at top-level semicolons, skipping those in
// quotes ('...', "...", `...`) and comments (-- to end of line, /* */).
// complete is false when the text after the last semicolon holds more
// than whitespace and comments, or a quote or comment is left open: the
// shell then asks for another line. Statements keep their own text
// without the semicolon; blank ones are dropped.
//
// It stands in for internal/sql.SplitStatements (same signature) until
// that lands.
func splitStatements(text string) (stmts []string, complete bool) {
	start := 0
	significant := false // the current statement has more than comments
	emit := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" && significant {
			stmts = append(stmts, s)
		}
		significant = false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for ; j < len(text); j++ {
				if text[j] == '\\' && c != '`' {
					j++
					continue
				}
				if text[j] == c {
					// A doubled quote is an escaped quote.
					if j+1 < len(text) && text[j+1] == c {
						j++
						continue
					}
					break
				}
			}
			if j >= len(text) {
				emit(len(text))
				return stmts, false
			}
			significant = true
			i = j
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				emit(len(text))
				return stmts, false
			}
			i += 2 + end + 1
		case c == ';':
			emit(i)
			start = i + 1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			significant = true
		}
	}
	rest := significant
	emit(len(text))
	return stmts, !rest
}
