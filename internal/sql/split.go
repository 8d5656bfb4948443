package sql

import "strings"

// SplitStatements splits text at the semicolons that end statements,
// honouring quotes and comments, for the interactive shell. It returns
// the complete statements (trimmed, without ';', empty ones dropped) and
// whether text after the last ';' holds an unfinished statement (anything
// but blanks and comments, or an open quote or comment).
func SplitStatements(text string) ([]string, bool) {
	var out []string
	start := 0
	content := false // the current statement has more than blanks and comments
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return out, true
			}
			i += 2 + end + 2
			continue
		case c == '\'' || c == '"' || c == '`':
			content = true
			j := i + 1
			closed := false
			for j < len(text) {
				if c != '`' && text[j] == '\\' {
					j += 2
					continue
				}
				if text[j] == c {
					if j+1 < len(text) && text[j+1] == c {
						j += 2
						continue
					}
					closed = true
					break
				}
				j++
			}
			if !closed {
				return out, true
			}
			i = j + 1
			continue
		case c == ';':
			if content {
				out = append(out, strings.TrimSpace(text[start:i]))
			}
			start, content = i+1, false
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		default:
			content = true
		}
		i++
	}
	return out, content
}
