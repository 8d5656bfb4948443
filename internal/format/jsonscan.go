package format

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the JSON scanner behind the JSON lines decoder. It never
// recurses on the input's nesting, so a 100k-deep document costs a
// counter, not a goroutine stack: containers are tracked with an explicit
// stack (validate) or a depth count (skipValue), both capped at
// maxJSONDepth.

// maxJSONDepth is the deepest nesting accepted, Jackson's default too.
const maxJSONDepth = 1000

// jsonError is a syntax error at a byte offset of the record.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("invalid JSON at offset %d: %s", e.off, e.msg) }

func synErr(b []byte, i int, what string) error {
	if i >= len(b) {
		return &jsonError{off: i, msg: "unexpected end of input, expected " + what}
	}
	c := b[i]
	if c >= 0x20 && c < 0x7f {
		return &jsonError{off: i, msg: fmt.Sprintf("unexpected %q, expected %s", c, what)}
	}
	return &jsonError{off: i, msg: fmt.Sprintf("unexpected byte 0x%02x, expected %s", c, what)}
}

// isWS tests c > ' ' first: between tokens there is mostly no
// whitespace at all, so one comparison settles it.
func isWS(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

func skipWS(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && isWS(b[i]) {
		i++
	}
	return i
}

// scalarEnd marks the bytes that end an unquoted scalar (a number or a
// literal) being skipped: ',', '}', ']' and whitespace.
var scalarEnd = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\n': true, '\r': true}

// scanString returns the offset just past the closing quote of the string
// starting at b[i] == '"', and whether it holds escapes. Escapes are
// checked for shape; raw control characters are tolerated (producers
// write them and rejecting the row helps nobody).
func scanString(b []byte, i int) (end int, escaped bool, err error) {
	j := i + 1
	// Keys and most values end within 32 bytes: SWAR there, then the
	// vectorised IndexByte, which wins on long strings (user agents).
	for k := 0; k < 4 && j+8 <= len(b); k++ {
		if m := quoteOrBackslash(binary.LittleEndian.Uint64(b[j:])); m != 0 {
			j += bits.TrailingZeros64(m) / 8
			if b[j] == '"' {
				return j + 1, false, nil
			}
			return scanStringLong(b, i, j)
		}
		j += 8
	}
	return scanStringLong(b, i, j)
}

// scanStringLong goes on from b[j], inside the string that starts at
// b[i]. Each quote and backslash is found once, so a long string with
// many escapes still costs one pass.
func scanStringLong(b []byte, i, j int) (int, bool, error) {
	escaped := false
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, false, &jsonError{off: i, msg: "unterminated string"}
		}
		q += j
		for {
			bs := bytes.IndexByte(b[j:q], '\\')
			if bs < 0 {
				return q + 1, escaped, nil
			}
			j += bs
			n, err := escapeLen(b, j)
			if err != nil {
				return 0, false, err
			}
			escaped = true
			j += n
			if j > q {
				break // the quote at q was escaped
			}
		}
	}
}

// quoteOrBackslash marks the bytes of x that are '"' or '\\' (exactly
// the lowest one; higher marks may be false positives).
func quoteOrBackslash(x uint64) uint64 {
	q := x ^ (swarLo * '"')
	e := x ^ (swarLo * '\\')
	return ((q-swarLo)&^q | (e-swarLo)&^e) & swarHi
}

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// escapeLen checks the escape at b[j] == '\\' and returns its length.
func escapeLen(b []byte, j int) (int, error) {
	if j+1 >= len(b) {
		return 0, &jsonError{off: j, msg: "unterminated string"}
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
		if j+6 > len(b) || !isHex4(b[j+2:j+6]) {
			return 0, &jsonError{off: j, msg: "bad \\u escape"}
		}
		return 6, nil
	}
	return 0, &jsonError{off: j, msg: fmt.Sprintf("bad escape \\%c", b[j+1])}
}

func isHex4(h []byte) bool {
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// scanNumber checks JSON number grammar from b[i] and returns its end.
func scanNumber(b []byte, i int) (int, error) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return 0, synErr(b, i, "digit")
	}
	if b[i] == '0' {
		i++
	} else if b[i] >= '1' && b[i] <= '9' {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	} else {
		return 0, synErr(b, i, "digit")
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return 0, synErr(b, i, "digit after '.'")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return 0, synErr(b, i, "exponent digits")
		}
	}
	_ = start
	return i, nil
}

func scanLiteral(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, synErr(b, i, "value")
	}
	return i + len(lit), nil
}

// validate checks that b[i:] starts with one complete JSON value, by the
// grammar, and returns its end. stack is scratch space that is returned
// (grown) for reuse.
func validate(b []byte, i int, stack []byte) (int, []byte, error) {
	stack = stack[:0]
	const (
		stValue = iota
		stAfter
		stKey
	)
	state := stValue
	for {
		switch state {
		case stValue:
			i = skipWS(b, i)
			if i >= len(b) {
				return 0, stack, synErr(b, i, "value")
			}
			switch c := b[i]; c {
			case '{', '[':
				if len(stack) >= maxJSONDepth {
					return 0, stack, &jsonError{off: i, msg: fmt.Sprintf("nesting deeper than %d", maxJSONDepth)}
				}
				stack = append(stack, c)
				i = skipWS(b, i+1)
				if i < len(b) && (c == '{' && b[i] == '}' || c == '[' && b[i] == ']') {
					stack = stack[:len(stack)-1]
					i++
					state = stAfter
				} else if c == '{' {
					state = stKey
				}
				continue
			case '"':
				end, _, err := scanString(b, i)
				if err != nil {
					return 0, stack, err
				}
				i = end
			case 't':
				end, err := scanLiteral(b, i, "true")
				if err != nil {
					return 0, stack, err
				}
				i = end
			case 'f':
				end, err := scanLiteral(b, i, "false")
				if err != nil {
					return 0, stack, err
				}
				i = end
			case 'n':
				end, err := scanLiteral(b, i, "null")
				if err != nil {
					return 0, stack, err
				}
				i = end
			default:
				end, err := scanNumber(b, i)
				if err != nil {
					return 0, stack, err
				}
				i = end
			}
			state = stAfter
		case stAfter:
			if len(stack) == 0 {
				return i, stack, nil
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return 0, stack, synErr(b, i, "',' or a closing bracket")
			}
			top := stack[len(stack)-1]
			switch {
			case b[i] == ',':
				i++
				if top == '{' {
					state = stKey
				} else {
					state = stValue
				}
			case b[i] == '}' && top == '{', b[i] == ']' && top == '[':
				stack = stack[:len(stack)-1]
				i++
			default:
				if top == '{' {
					return 0, stack, synErr(b, i, "',' or '}'")
				}
				return 0, stack, synErr(b, i, "',' or ']'")
			}
		case stKey:
			i = skipWS(b, i)
			if i >= len(b) || b[i] != '"' {
				return 0, stack, synErr(b, i, "object key")
			}
			end, _, err := scanString(b, i)
			if err != nil {
				return 0, stack, err
			}
			i = skipWS(b, end)
			if i >= len(b) || b[i] != ':' {
				return 0, stack, synErr(b, i, "':'")
			}
			i++
			state = stValue
		}
	}
}

// skipValue returns the end of the value starting at b[i] without checking
// more than string termination and bracket balance: it is used for fields
// no one asked for, where full validation would only cost time.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, synErr(b, i, "value")
	}
	switch b[i] {
	case '"':
		end, _, err := scanString(b, i)
		return end, err
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			j = nextStructural(b, j)
			if j >= len(b) {
				break
			}
			switch b[j] {
			case '"':
				end, _, err := scanString(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
				if depth > maxJSONDepth {
					return 0, &jsonError{off: j, msg: fmt.Sprintf("nesting deeper than %d", maxJSONDepth)}
				}
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, synErr(b, len(b), "closing bracket")
	case ',', '}', ']', ':':
		return 0, synErr(b, i, "value")
	}
	j := i
	for j < len(b) && !scalarEnd[b[j]] {
		j++
	}
	return j, nil
}

// nextStructural returns the index of the first byte at or after j that
// may be '"' or a bracket (len(b) if none). It can stop early on 'Y', 'y',
// '_' or DEL, which share the bracket test's bits; callers just step on.
func nextStructural(b []byte, j int) int {
	for j+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[j:])
		q := x ^ (swarLo * '"')
		t := (x|swarLo*0x20)&^(swarLo*0x06) ^ (swarLo * 0x79)
		m := ((q-swarLo)&^q | (t-swarLo)&^t) & swarHi
		if m != 0 {
			return j + bits.TrailingZeros64(m)/8
		}
		j += 8
	}
	for j < len(b) {
		if c := b[j]; c == '"' || (c|0x20)&^0x06 == 0x79 {
			return j
		}
		j++
	}
	return j
}

// unescape appends the decoded content of the JSON string literal s
// (quotes included) to dst. Lone surrogates become U+FFFD.
func unescape(dst, s []byte) []byte {
	s = s[1 : len(s)-1]
	for len(s) > 0 {
		k := bytes.IndexByte(s, '\\')
		if k < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:k]...)
		s = s[k:]
		if len(s) < 2 {
			return append(dst, "\uFFFD"...)
		}
		switch c := s[1]; c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := decodeU(s)
			dst = utf8.AppendRune(dst, r)
			s = s[n:]
			continue
		default:
			dst = append(dst, c)
		}
		s = s[2:]
	}
	return dst
}

// decodeU reads \uXXXX (and a following low surrogate) at the start of s.
func decodeU(s []byte) (rune, int) {
	if len(s) < 6 || !isHex4(s[2:6]) {
		return utf8.RuneError, min(len(s), 2)
	}
	r := hex4(s[2:6])
	if utf16.IsSurrogate(r) {
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' && isHex4(s[8:12]) {
			if d := utf16.DecodeRune(r, hex4(s[8:12])); d != utf8.RuneError {
				return d, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

func hex4(h []byte) rune {
	var r rune
	for _, c := range h[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// objIter walks the members of a validated JSON object.
type objIter struct {
	b []byte
	i int
}

func newObjIter(v []byte) objIter { return objIter{b: v, i: 1} }

// next returns the raw key literal (quotes included) and the raw value.
func (it *objIter) next() (key, val []byte, ok bool) {
	b := it.b
	i := skipWS(b, it.i)
	if i < len(b) && b[i] == ',' {
		i = skipWS(b, i+1)
	}
	if i >= len(b) || b[i] != '"' {
		return nil, nil, false
	}
	kend, _, err := scanString(b, i)
	if err != nil {
		return nil, nil, false
	}
	key = b[i:kend]
	i = skipWS(b, kend)
	if i >= len(b) || b[i] != ':' {
		return nil, nil, false
	}
	i = skipWS(b, i+1)
	vend, err := skipValue(b, i)
	if err != nil {
		return nil, nil, false
	}
	it.i = vend
	return key, b[i:vend], true
}

// arrIter walks the elements of a validated JSON array.
type arrIter struct {
	b []byte
	i int
}

func newArrIter(v []byte) arrIter { return arrIter{b: v, i: 1} }

func (it *arrIter) next() ([]byte, bool) {
	b := it.b
	i := skipWS(b, it.i)
	if i < len(b) && b[i] == ',' {
		i = skipWS(b, i+1)
	}
	if i >= len(b) || b[i] == ']' {
		return nil, false
	}
	end, err := skipValue(b, i)
	if err != nil {
		return nil, false
	}
	it.i = end
	return b[i:end], true
}
