package functions

// datetime_pattern.go: Spark 3's datetime patterns (its guide,
// sql-ref-datetime-pattern), one table for formatting (date_format,
// from_unixtime) and parsing (to_timestamp, to_date, unix_timestamp,
// to_unix_timestamp). Timestamps are UTC (Sluice's session time zone),
// so zone letters print UTC's forms.
//
// Letters and counts:
//
//	G    era            1-3 AD, 4 Anno Domini
//	y    year           2 two digits (parse: 2000-2099), else padded to the count
//	M L  month          1, 2 digits; 3 Mar; 4 March
//	d    day of month   1-2        D day of year 1-3 (padded to the count)
//	Q q  quarter        1, 2 digits; 3 Q1; 4 1st quarter (format only)
//	E    day of week    1-3 Thu; 4 Thursday (format only)
//	F    aligned day of week in month, 1 (format only)
//	a    AM/PM, 1       h 1-12  K 0-11  k 1-24  H 0-23  m  s  (1-2)
//	S    fraction of second, 1-9 digits (truncated)
//	VV   zone id        z 1-3 UTC, 4 Coordinated Universal Time
//	O    1 or 4: GMT, GMT+01:00    X x Z: offsets, 1-5
//	'text' literal, '' a quote, [ ] optional section
//
// Spark refuses the rest, each with its own message: week-based
// letters (Y w W u e c), A B n N p, five-letter text (GGGGG MMMMM
// LLLLL EEEEE QQQQQ qqqqq) and seven y's, and letters beyond Java's
// counts. When Spark 2's SimpleDateFormat accepted the pattern Spark 3
// raises INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION
// instead; so does Sluice.
//
// Parsing follows Spark's non-ANSI rule: text the pattern does not
// match is NULL, unless Spark 2's lenient SimpleDateFormat would have
// parsed it (one-digit months for MM, text after the date, a fraction
// longer than its S's): then Spark raises
// INCONSISTENT_BEHAVIOR_CROSS_VERSION.PARSE_DATETIME_BY_NEW_PARSER.

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dtTok is a pattern letter run, literal text, or an optional section.
type dtTok struct {
	letter byte
	n      int
	lit    string
	opt    []dtTok
}

type dtPattern struct {
	src  string
	toks []dtTok
	// parseErr: the pattern formats but cannot parse (E F q Q).
	parseErr error
}

var dtPatternCache sync.Map

// compileDatetimePattern parses and validates a Spark datetime pattern.
func compileDatetimePattern(p string) (*dtPattern, error) {
	if v, ok := dtPatternCache.Load(p); ok {
		return v.(*dtPattern), nil
	}
	dp, err := compileDT(p)
	if err != nil {
		return nil, err
	}
	dtPatternCache.Store(p, dp)
	return dp, nil
}

func recognitionErr(p string) error {
	return fmt.Errorf("[INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION] Spark 3 does not recognize the datetime pattern '%s' (Spark 2 did: see Spark's datetime pattern guide)", p)
}

// legacyAccepts reports whether Spark 2's SimpleDateFormat took p.
func legacyAccepts(p string) bool {
	inQuote := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\'' {
			inQuote = !inQuote
			continue
		}
		if inQuote || !isASCIILetter(c) {
			continue
		}
		if !strings.ContainsRune("GyYMLwWDdFEuaHkKhmsSzZX", rune(c)) {
			return false
		}
		if c == 'X' {
			j := i
			for j < len(p) && p[j] == 'X' {
				j++
			}
			if j-i > 3 {
				return false
			}
		}
	}
	return !inQuote
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// dtMax is the most letters Java's DateTimeFormatter takes.
var dtMax = map[byte]int{
	'G': 4, 'y': 6, 'M': 4, 'L': 4, 'd': 2, 'D': 3, 'Q': 4, 'q': 4, 'E': 4, 'F': 1,
	'a': 1, 'h': 2, 'K': 2, 'k': 2, 'H': 2, 'm': 2, 's': 2, 'S': 9,
	'V': 2, 'z': 4, 'O': 4, 'X': 5, 'x': 5, 'Z': 5,
}

func compileDT(p string) (*dtPattern, error) {
	fail := func(format string, a ...any) (*dtPattern, error) {
		if legacyAccepts(p) {
			return nil, recognitionErr(p)
		}
		return nil, fmt.Errorf("invalid datetime pattern '%s': %s", p, fmt.Sprintf(format, a...))
	}
	dp := &dtPattern{src: p}
	stack := [][]dtTok{nil}
	push := func(t dtTok) { stack[len(stack)-1] = append(stack[len(stack)-1], t) }
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			push(dtTok{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			j := i + 1
			if j < len(p) && p[j] == '\'' {
				lit.WriteByte('\'')
				i = j + 1
				continue
			}
			for {
				if j >= len(p) {
					return fail("the pattern ends inside a quoted literal: %s", p[i:])
				}
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						lit.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				lit.WriteByte(p[j])
				j++
			}
			i = j + 1
		case c == '[':
			flush()
			stack = append(stack, nil)
			i++
		case c == ']':
			flush()
			if len(stack) == 1 {
				return fail("']' closes no optional section")
			}
			sec := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			push(dtTok{opt: sec})
			i++
		case c == '#' || c == '{' || c == '}':
			return fail("'%c' is reserved", c)
		case isASCIILetter(c):
			flush()
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			n := j - i
			switch {
			case strings.IndexByte("YwWuec", c) >= 0:
				return fail("week-based letters (%c) are unsupported since Spark 3.0: use EXTRACT instead", c)
			case strings.IndexByte("ABnNp", c) >= 0:
				return fail("illegal pattern letter '%c'", c)
			case strings.IndexByte("GMLEQq", c) >= 0 && n >= 5 || c == 'y' && n >= 7:
				return fail("too many pattern letters: %c", c)
			}
			max, ok := dtMax[c]
			switch {
			case !ok:
				return fail("unknown pattern letter '%c'", c)
			case c == 'V' && n != 2:
				return fail("pattern letter V takes exactly 2 letters")
			case c == 'O' && n != 1 && n != 4:
				return fail("pattern letter O takes 1 or 4 letters")
			case n > max:
				return fail("too many pattern letters: %c", c)
			}
			if strings.IndexByte("EFqQ", c) >= 0 && dp.parseErr == nil {
				if c == 'E' || c == 'F' {
					dp.parseErr = recognitionErr(p)
				} else {
					dp.parseErr = fmt.Errorf("invalid datetime pattern '%s' for parsing: illegal pattern letter '%c'", p, c)
				}
			}
			push(dtTok{letter: c, n: n})
			i = j
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	if len(stack) != 1 {
		// Java closes open optional sections at the end.
		for len(stack) > 1 {
			sec := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			push(dtTok{opt: sec})
		}
	}
	dp.toks = stack[0]
	return dp, nil
}

var quarterNames = [...]string{"1st quarter", "2nd quarter", "3rd quarter", "4th quarter"}

func padInt(v, n int) string {
	s := strconv.Itoa(v)
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// format prints t (UTC) by the pattern.
func (dp *dtPattern) format(t time.Time) string {
	var b strings.Builder
	formatDT(&b, dp.toks, t)
	return b.String()
}

func formatDT(b *strings.Builder, toks []dtTok, t time.Time) {
	for _, tk := range toks {
		if tk.opt != nil {
			formatDT(b, tk.opt, t)
			continue
		}
		if tk.letter == 0 {
			b.WriteString(tk.lit)
			continue
		}
		n := tk.n
		switch tk.letter {
		case 'G':
			ad := t.Year() > 0
			switch {
			case n == 4 && ad:
				b.WriteString("Anno Domini")
			case n == 4:
				b.WriteString("Before Christ")
			case ad:
				b.WriteString("AD")
			default:
				b.WriteString("BC")
			}
		case 'y':
			y := t.Year()
			if y <= 0 {
				y = 1 - y
			}
			switch {
			case n == 2:
				b.WriteString(padInt(y%100, 2))
			case n >= 4 && len(strconv.Itoa(y)) > n:
				b.WriteString("+" + strconv.Itoa(y))
			default:
				b.WriteString(padInt(y, n))
			}
		case 'M', 'L':
			switch n {
			case 1, 2:
				b.WriteString(padInt(int(t.Month()), n))
			case 3:
				b.WriteString(t.Month().String()[:3])
			default:
				b.WriteString(t.Month().String())
			}
		case 'd':
			b.WriteString(padInt(t.Day(), n))
		case 'D':
			b.WriteString(padInt(t.YearDay(), n))
		case 'Q', 'q':
			q := (int(t.Month())-1)/3 + 1
			switch n {
			case 1, 2:
				b.WriteString(padInt(q, n))
			case 3:
				b.WriteString("Q" + strconv.Itoa(q))
			default:
				b.WriteString(quarterNames[q-1])
			}
		case 'E':
			if n == 4 {
				b.WriteString(t.Weekday().String())
			} else {
				b.WriteString(t.Weekday().String()[:3])
			}
		case 'F':
			b.WriteString(strconv.Itoa((t.Day()-1)%7 + 1))
		case 'a':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'h':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			b.WriteString(padInt(h, n))
		case 'K':
			b.WriteString(padInt(t.Hour()%12, n))
		case 'k':
			h := t.Hour()
			if h == 0 {
				h = 24
			}
			b.WriteString(padInt(h, n))
		case 'H':
			b.WriteString(padInt(t.Hour(), n))
		case 'm':
			b.WriteString(padInt(t.Minute(), n))
		case 's':
			b.WriteString(padInt(t.Second(), n))
		case 'S':
			b.WriteString(padInt(t.Nanosecond(), 9)[:n])
		case 'V':
			b.WriteString("UTC")
		case 'z':
			if n == 4 {
				b.WriteString("Coordinated Universal Time")
			} else {
				b.WriteString("UTC")
			}
		case 'O':
			b.WriteString("GMT")
		case 'X':
			b.WriteString("Z")
		case 'x':
			b.WriteString([...]string{"+00", "+0000", "+00:00", "+0000", "+00:00"}[n-1])
		case 'Z':
			b.WriteString([...]string{"+0000", "+0000", "+0000", "GMT", "Z"}[n-1])
		}
	}
}
