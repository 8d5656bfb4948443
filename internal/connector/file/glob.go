package file

import (
	"fmt"
	"regexp"
	"strings"
)

// glob matches object keys against a location pattern. Patterns use the
// shell syntax people already write for file names, extended the way
// Spark and Hadoop do:
//
//   - any run of characters within one path segment
//     **      any run of characters across segments ("logs/**/x.json"
//     matches logs/x.json and logs/a/b/x.json)
//     ?       one character other than '/'
//     [abc]   one of the characters; [a-z] ranges; [!abc] or [^abc] negates
//     {a,b}   either alternative (alternatives may hold patterns and nest)
//     \x      the character x itself
//
// Patterns compile to one anchored regexp so a listing of millions of
// keys costs one regexp match per key.
type glob struct {
	pattern string
	re      *regexp.Regexp
	// prefix is the literal text before the first wildcard: the store is
	// listed from there, so "logs/2026-*" never lists "other/".
	prefix string
}

// hasMeta reports whether s holds any unescaped wildcard character.
func hasMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[', '{':
			return true
		}
	}
	return false
}

// unescapeGlob removes backslash escapes from a pattern without wildcards.
func unescapeGlob(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// literalPrefix returns the unescaped text before the first wildcard.
func literalPrefix(p string) string {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '*', '?', '[', '{':
			return unescapeGlob(p[:i])
		}
	}
	return unescapeGlob(p)
}

// compileGlob turns a pattern into a glob; a malformed pattern (an
// unclosed '[' or '{') is an error naming it.
func compileGlob(pattern string) (*glob, error) {
	var b strings.Builder
	b.WriteString("^")
	rest, err := globToRegexp(&b, pattern, 0)
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", pattern, err)
	}
	if rest != "" {
		return nil, fmt.Errorf("glob %q: unexpected %q", pattern, rest[:1])
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", pattern, err)
	}
	return &glob{pattern: pattern, re: re, prefix: literalPrefix(pattern)}, nil
}

// globToRegexp writes the regexp for p until its end or, inside braces
// (depth > 0), until the ',' or '}' that ends the current alternative,
// and returns the unconsumed rest.
func globToRegexp(b *strings.Builder, p string, depth int) (string, error) {
	for len(p) > 0 {
		c := p[0]
		switch {
		case c == '\\':
			if len(p) < 2 {
				return "", fmt.Errorf("trailing backslash")
			}
			b.WriteString(regexp.QuoteMeta(p[1:2]))
			p = p[2:]
		case strings.HasPrefix(p, "**/"):
			// Zero or more whole directories.
			b.WriteString(`(?:.*/)?`)
			p = p[3:]
		case strings.HasPrefix(p, "**"):
			b.WriteString(`.*`)
			p = p[2:]
		case c == '*':
			b.WriteString(`[^/]*`)
			p = p[1:]
		case c == '?':
			b.WriteString(`[^/]`)
			p = p[1:]
		case c == '[':
			end := classEnd(p)
			if end < 0 {
				return "", fmt.Errorf("unclosed '['")
			}
			class := p[1:end]
			p = p[end+1:]
			b.WriteString("[")
			if strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^") {
				b.WriteString("^/")
				class = class[1:]
			}
			for i := 0; i < len(class); i++ {
				switch ch := class[i]; ch {
				case '\\':
					if i+1 < len(class) {
						i++
						b.WriteString(regexp.QuoteMeta(class[i : i+1]))
					}
				case '-':
					b.WriteByte('-')
				case '[', ']', '^':
					b.WriteString(`\` + string(ch))
				default:
					b.WriteString(regexp.QuoteMeta(string(ch)))
				}
			}
			b.WriteString("]")
		case c == '{':
			b.WriteString("(?:")
			p = p[1:]
			for {
				var err error
				p, err = globToRegexp(b, p, depth+1)
				if err != nil {
					return "", err
				}
				if p == "" {
					return "", fmt.Errorf("unclosed '{'")
				}
				if p[0] == '}' {
					p = p[1:]
					break
				}
				b.WriteString("|")
				p = p[1:] // the ','
			}
			b.WriteString(")")
		case depth > 0 && (c == ',' || c == '}'):
			return p, nil
		default:
			b.WriteString(regexp.QuoteMeta(p[:1]))
			p = p[1:]
		}
	}
	return "", nil
}

// classEnd returns the index of the ']' closing the class that starts at
// p[0] == '[', or -1. A ']' right after '[' or '[!' is a literal member.
func classEnd(p string) int {
	i := 1
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		i++
	}
	if i < len(p) && p[i] == ']' {
		i++
	}
	for ; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return -1
}

// Match reports whether key matches the whole pattern.
func (g *glob) Match(key string) bool { return g.re.MatchString(key) }
