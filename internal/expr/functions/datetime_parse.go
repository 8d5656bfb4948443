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
	"time"
)

// dtFields collects what a parse found.
type dtFields struct {
	era, year, yy, month, day, doy         int // -1: absent
	hour, hour12, hour24k, hour11, ampm    int
	minute, second, nanos, offsetSec, zone int
	loc                                    *time.Location
}

func newDTFields() dtFields {
	return dtFields{era: -1, year: -1, yy: -1, month: -1, day: -1, doy: -1, hour: -1, hour12: -1,
		hour24k: -1, hour11: -1, ampm: -1, minute: -1, second: -1, nanos: -1, zone: -1}
}

type dtParser struct {
	s      string
	pos    int
	legacy bool // Spark 2's SimpleDateFormat, lenient=false
	f      dtFields
}

// parse parses s by the pattern: micros (UTC) and whether it parsed.
func (dp *dtPattern) parse(s string, legacy bool) (int64, bool) {
	p := &dtParser{s: s, legacy: legacy, f: newDTFields()}
	if !p.seq(dp.toks) {
		return 0, false
	}
	if !legacy && p.pos != len(s) {
		return 0, false
	}
	return p.f.resolve(legacy)
}

// parseSpark is Spark 3's to_timestamp parse: ok, NULL, or the upgrade
// error when only Spark 2's parser takes the text.
func (dp *dtPattern) parseSpark(s string) (int64, bool, error) {
	if dp.parseErr != nil {
		return 0, false, dp.parseErr
	}
	if us, ok := dp.parse(s, false); ok {
		return us, true, nil
	}
	if !legacyAccepts(dp.src) {
		return 0, false, nil
	}
	if _, ok := dp.parse(s, true); ok {
		return 0, false, fmt.Errorf("[INCONSISTENT_BEHAVIOR_CROSS_VERSION.PARSE_DATETIME_BY_NEW_PARSER] Spark 3 fails to parse '%s' by the pattern '%s' where Spark 2 parsed it (Spark raises this error rather than return NULL)", s, dp.src)
	}
	return 0, false, nil
}

func (p *dtParser) seq(toks []dtTok) bool {
	for i, tk := range toks {
		if tk.opt != nil {
			if p.legacy {
				// SimpleDateFormat has no optional sections: [ and ] are text.
				if !p.literal("[") || !p.seq(tk.opt) || !p.literal("]") {
					return false
				}
				continue
			}
			save, f := p.pos, p.f
			if !p.seq(tk.opt) {
				p.pos, p.f = save, f
			}
			continue
		}
		if tk.letter == 0 {
			if !p.literal(tk.lit) {
				return false
			}
			continue
		}
		if !p.field(tk, toks[i+1:]) {
			return false
		}
	}
	return true
}

func (p *dtParser) literal(l string) bool {
	if p.legacy {
		// SimpleDateFormat skips whitespace before a field and
		// compares literal text exactly.
		if !strings.HasPrefix(p.s[p.pos:], l) {
			return false
		}
		p.pos += len(l)
		return true
	}
	if len(p.s)-p.pos < len(l) || !strings.EqualFold(p.s[p.pos:p.pos+len(l)], l) {
		return false
	}
	p.pos += len(l)
	return true
}

func isNumericTok(tk dtTok) bool {
	switch tk.letter {
	case 'y', 'd', 'D', 'h', 'K', 'k', 'H', 'm', 's', 'S':
		return true
	case 'M', 'L', 'Q', 'q':
		return tk.n <= 2
	}
	return false
}

// widths gives the digits a numeric field takes: min, max (Java's
// DateTimeFormatter; the legacy parser takes any count unless the next
// field is numeric too, then exactly its letters).
func (p *dtParser) widths(tk dtTok, rest []dtTok) (int, int) {
	if p.legacy {
		if len(rest) > 0 && rest[0].letter != 0 && isNumericTok(rest[0]) {
			return 1, tk.n
		}
		return 1, 19
	}
	switch {
	case tk.letter == 'S':
		return 1, tk.n
	case tk.letter == 'y' && tk.n == 2:
		return 2, 2
	case tk.letter == 'y':
		return tk.n, 19
	case tk.letter == 'D':
		return tk.n, 3
	case tk.n == 1:
		return 1, 19
	}
	return tk.n, tk.n
}

func (p *dtParser) number(tk dtTok, rest []dtTok) (int, int, bool) {
	if p.legacy {
		for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
			p.pos++
		}
	}
	lo, hi := p.widths(tk, rest)
	avail := 0
	for p.pos+avail < len(p.s) && p.s[p.pos+avail] >= '0' && p.s[p.pos+avail] <= '9' {
		avail++
	}
	take := min(avail, hi)
	if !p.legacy && lo != hi && tk.letter != 'S' {
		// Adjacent value parsing: reserve the digits of the fixed-width
		// numeric fields that follow without text in between.
		reserve := 0
		for _, r := range rest {
			if r.letter == 0 || !isNumericTok(r) || r.letter == 'S' {
				break
			}
			rlo, rhi := p.widths(r, nil)
			if rlo != rhi {
				break
			}
			reserve += rlo
		}
		take = min(take, avail-reserve)
	}
	if take < lo || take <= 0 {
		return 0, 0, false
	}
	if take > 9 && tk.letter != 'S' {
		return 0, 0, false
	}
	v, err := strconv.Atoi(p.s[p.pos : p.pos+take])
	if err != nil && tk.letter != 'S' {
		return 0, 0, false
	}
	digits := p.s[p.pos : p.pos+take]
	p.pos += take
	if tk.letter == 'S' {
		if p.legacy {
			// SimpleDateFormat's S is milliseconds.
			return v, take, v < 1000 || take <= 3
		}
		ns, _ := strconv.Atoi((digits + "000000000")[:9])
		return ns, take, true
	}
	return v, take, true
}

func (p *dtParser) text(options []string) (int, bool) {
	rest := p.s[p.pos:]
	best, bestLen := -1, 0
	for i, o := range options {
		if len(o) > bestLen && len(rest) >= len(o) && strings.EqualFold(rest[:len(o)], o) {
			best, bestLen = i, len(o)
		}
	}
	if best < 0 {
		return 0, false
	}
	p.pos += bestLen
	return best, true
}

var (
	monthsShort = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	monthsLong  = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

func (p *dtParser) field(tk dtTok, rest []dtTok) bool {
	f := &p.f
	if isNumericTok(tk) {
		v, _, ok := p.number(tk, rest)
		if !ok {
			return false
		}
		switch tk.letter {
		case 'y':
			if tk.n == 2 && !p.legacy {
				f.yy = v
			} else {
				f.year = v
			}
		case 'M', 'L':
			f.month = v
		case 'd':
			f.day = v
		case 'D':
			f.doy = v
		case 'h':
			f.hour12 = v
		case 'K':
			f.hour11 = v
		case 'k':
			f.hour24k = v
		case 'H':
			f.hour = v
		case 'm':
			f.minute = v
		case 's':
			f.second = v
		case 'S':
			if p.legacy {
				f.nanos = v * 1_000_000
			} else {
				f.nanos = v
			}
		}
		return true
	}
	switch tk.letter {
	case 'M', 'L':
		opts := monthsShort
		if tk.n == 4 {
			opts = monthsLong
		}
		if p.legacy {
			opts = append(append([]string{}, monthsLong...), monthsShort...)
		}
		i, ok := p.text(opts)
		f.month = i%12 + 1
		return ok
	case 'G':
		opts := []string{"BC", "AD"}
		if tk.n == 4 {
			opts = []string{"Before Christ", "Anno Domini"}
		}
		i, ok := p.text(opts)
		f.era = i
		return ok
	case 'a':
		i, ok := p.text([]string{"AM", "PM"})
		f.ampm = i
		return ok
	case 'V', 'z':
		if p.legacy {
			return p.legacyZone(tk.letter, tk.n)
		}
		return p.zoneName(tk.letter == 'V')
	case 'O', 'X', 'x', 'Z':
		if p.legacy {
			return p.legacyZone(tk.letter, tk.n)
		}
		return p.offset(tk)
	}
	return false
}

// legacyZone is SimpleDateFormat's zone parsing after whitespace: X
// takes Z or an ISO offset by its count (+01, +0130, +01:30); z and Z take GMT,
// GMT+h[h][:mm], an RFC 822 offset (+0130) or a zone name.
func (p *dtParser) legacyZone(letter byte, n int) bool {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
	try := func(tk dtTok) bool {
		save := p.pos
		if p.offset(tk) {
			return true
		}
		p.pos = save
		return false
	}
	if letter == 'X' {
		return try(dtTok{letter: 'X', n: min(n, 3)})
	}
	if try(dtTok{letter: 'O', n: 1}) || try(dtTok{letter: 'Z', n: 1}) {
		return true
	}
	rest := p.s[p.pos:]
	j := 0
	for j < len(rest) && isASCIILetter(rest[j]) {
		j++
	}
	name := strings.ToUpper(rest[:j])
	switch name {
	case "UTC", "GMT", "UT":
		p.f.loc = time.UTC
	default:
		off, ok := zoneAbbrevs[name]
		if !ok {
			return false
		}
		p.f.loc = time.FixedZone(name, off)
	}
	p.pos += j
	return true
}

// zoneOffsetID parses an offset zone id: +01:30, GMT+01:00, UTC+1.
func (p *dtParser) zoneOffsetID() bool {
	rest := p.s[p.pos:]
	prefix := 0
	for _, pre := range []string{"GMT", "UTC", "UT"} {
		if len(rest) > len(pre) && strings.EqualFold(rest[:len(pre)], pre) && (rest[len(pre)] == '+' || rest[len(pre)] == '-') {
			prefix = len(pre)
			break
		}
	}
	if prefix == 0 && (rest == "" || rest[0] != '+' && rest[0] != '-') {
		return false
	}
	save := p.pos
	p.pos += prefix
	for _, tk := range []dtTok{{letter: 'X', n: 5}, {letter: 'X', n: 4}, {letter: 'O', n: 1}} {
		if tk.letter == 'O' {
			// O wants its GMT; offer the digits with one.
			q := &dtParser{s: "GMT" + p.s[p.pos:], f: p.f}
			if q.offset(tk) {
				p.pos += q.pos - 3
				p.f.offsetSec, p.f.zone = q.f.offsetSec, 1
				return true
			}
			continue
		}
		at := p.pos
		if p.offset(tk) {
			return true
		}
		p.pos = at
	}
	p.pos = save
	return false
}

// zoneName parses a zone id (VV) or a zone name (z).
func (p *dtParser) zoneName(id bool) bool {
	if p.zoneOffsetID() {
		return true
	}
	rest := p.s[p.pos:]
	j := 0
	for j < len(rest) && (isASCIILetter(rest[j]) || rest[j] == '/' || rest[j] == '_' || (id && (rest[j] == '+' || rest[j] == '-' || rest[j] >= '0' && rest[j] <= '9'))) {
		j++
	}
	name := rest[:j]
	if name == "" {
		return false
	}
	switch strings.ToUpper(name) {
	case "UTC", "GMT", "Z", "UT":
		p.f.loc = time.UTC
		p.pos += j
		return true
	}
	if !id {
		if off, ok := zoneAbbrevs[strings.ToUpper(name)]; ok {
			p.f.loc = time.FixedZone(name, off)
			p.pos += j
			return true
		}
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return false
	}
	p.f.loc = loc
	p.pos += j
	return true
}

// zoneAbbrevs are the short names java.time parses as fixed offsets in
// winter (Java maps them to regions; this keeps the common ones).
var zoneAbbrevs = map[string]int{
	"PST": -8 * 3600, "PDT": -7 * 3600, "MST": -7 * 3600, "MDT": -6 * 3600,
	"CST": -6 * 3600, "CDT": -5 * 3600, "EST": -5 * 3600, "EDT": -4 * 3600,
	"CET": 3600, "CEST": 7200, "EET": 7200, "WET": 0, "BST": 3600, "JST": 9 * 3600, "IST": 19800,
}

// offset parses O (GMT, GMT+1, GMT+01:00), X (Z or an offset), x and
// Z, each count with Java's layout: X/x 1 +HH[mm], 2 +HHmm, 3 +HH:mm,
// 4 +HHmm[ss], 5 +HH:mm[:ss]; Z 1-3 +HHmm, 4 GMT+HH:mm, 5 Z or +HH:mm[:ss].
func (p *dtParser) offset(tk dtTok) bool {
	rest := p.s[p.pos:]
	n := tk.n
	gmt := tk.letter == 'O' || tk.letter == 'Z' && n == 4
	if gmt {
		if len(rest) < 3 || !strings.EqualFold(rest[:3], "GMT") {
			return false
		}
		p.pos += 3
		rest = rest[3:]
		if rest == "" || rest[0] != '+' && rest[0] != '-' {
			p.f.offsetSec, p.f.zone = 0, 1
			return true
		}
	}
	if (tk.letter == 'X' || tk.letter == 'Z' && n == 5) && len(rest) > 0 && rest[0] == 'Z' {
		p.pos++
		p.f.offsetSec, p.f.zone = 0, 1
		return true
	}
	if rest == "" || rest[0] != '+' && rest[0] != '-' {
		return false
	}
	sign := 1
	if rest[0] == '-' {
		sign = -1
	}
	i := 1
	digits := func(k int) (int, bool) {
		if i+k > len(rest) {
			return 0, false
		}
		v := 0
		for j := 0; j < k; j++ {
			c := rest[i+j]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		i += k
		return v, true
	}
	colon := func() bool {
		if i < len(rest) && rest[i] == ':' {
			i++
			return true
		}
		return false
	}
	var h, m, sec int
	var ok bool
	if gmt && tk.letter == 'O' && n == 1 {
		// GMT+H[:mm] or GMT+HH[:mm]
		if h, ok = digits(2); !ok {
			if h, ok = digits(1); !ok {
				return false
			}
		}
		if save := i; colon() {
			if m, ok = digits(2); !ok {
				i = save
				m = 0
			}
		}
	} else {
		if h, ok = digits(2); !ok {
			return false
		}
		withColon := gmt || tk.letter != 'Z' && (n == 3 || n == 5) || tk.letter == 'Z' && n == 5
		optionalMin := tk.letter != 'Z' && n == 1
		save := i
		if withColon {
			if colon() {
				if m, ok = digits(2); !ok {
					return false
				}
			} else if !gmt {
				return false
			}
		} else if m, ok = digits(2); !ok {
			if !optionalMin {
				return false
			}
			i, m = save, 0
		}
		if n >= 4 || tk.letter == 'Z' && n == 5 {
			save := i
			if withColon {
				if colon() {
					if sec, ok = digits(2); !ok {
						i, sec = save, 0
					}
				}
			} else if sec, ok = digits(2); !ok {
				i, sec = save, 0
			}
		}
	}
	if h > 18 || m > 59 || sec > 59 {
		return false
	}
	p.pos += i
	p.f.offsetSec, p.f.zone = sign*(h*3600+m*60+sec), 1
	return true
}

func (f *dtFields) resolve(legacy bool) (int64, bool) {
	year := 1970
	switch {
	case f.year >= 0:
		year = f.year
		if f.era == 0 {
			year = 1 - year
		}
	case f.yy >= 0:
		year = 2000 + f.yy
	}
	if year > 294247 || year < -290307 {
		// Beyond TIMESTAMP's microseconds.
		return 0, false
	}
	month, day := 1, 1
	if f.month >= 0 {
		month = f.month
	}
	if f.day >= 0 {
		day = f.day
	}
	if month < 1 || month > 12 {
		return 0, false
	}
	dim := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if day < 1 || day > dim {
		return 0, false
	}
	if f.doy >= 0 {
		days := 365
		if time.Date(year, 12, 31, 0, 0, 0, 0, time.UTC).YearDay() == 366 {
			days = 366
		}
		if f.doy < 1 || f.doy > days {
			return 0, false
		}
		d := time.Date(year, 1, f.doy, 0, 0, 0, 0, time.UTC)
		if f.month >= 0 && int(d.Month()) != f.month || f.day >= 0 && d.Day() != f.day {
			return 0, false
		}
		month, day = int(d.Month()), d.Day()
	}
	hour := 0
	switch {
	case f.hour >= 0:
		if f.hour > 23 {
			return 0, false
		}
		hour = f.hour
		if f.ampm >= 0 && (hour < 12) != (f.ampm == 0) && !legacy {
			return 0, false
		}
	case f.hour24k >= 0:
		if f.hour24k < 1 || f.hour24k > 24 {
			return 0, false
		}
		hour = f.hour24k % 24
	case f.hour12 >= 0:
		if f.hour12 < 1 || f.hour12 > 12 {
			return 0, false
		}
		hour = f.hour12 % 12
		if f.ampm == 1 {
			hour += 12
		}
	case f.hour11 >= 0:
		if f.hour11 > 11 {
			return 0, false
		}
		hour = f.hour11
		if f.ampm == 1 {
			hour += 12
		}
	}
	if f.hour < 0 && f.hour24k < 0 && f.hour12 < 0 && f.hour11 < 0 && f.ampm == 1 {
		hour = 12 // PM alone is noon
	}
	minute, second, nanos := max(f.minute, 0), max(f.second, 0), max(f.nanos, 0)
	if minute > 59 || second > 59 {
		return 0, false
	}
	loc := time.UTC
	if f.loc != nil {
		loc = f.loc
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, nanos, loc)
	if f.zone > 0 {
		t = time.Date(year, time.Month(month), day, hour, minute, second, nanos, time.UTC).Add(-time.Duration(f.offsetSec) * time.Second)
	}
	return t.UnixMicro(), true
}
