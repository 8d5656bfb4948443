package format

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// This file turns text (a JSON string or number, a CSV field) into the
// Arrow value a column wants. Every append* appends exactly one value to
// b (NULL when the text does not convert) and returns a reason when it
// did not; a nil builder only checks.

// kind is a column's type, resolved once so the hot loop switches on a
// small integer instead of type-asserting arrow.DataType.
type kind uint8

const (
	kNull kind = iota
	kBool
	kInt8
	kInt16
	kInt32
	kInt64
	kFloat32
	kFloat64
	kDecimal
	kString
	kDate
	kTimestamp
	kInterval
	kStruct
	kList
	kMap
)

func kindOf(t arrow.DataType) (kind, bool) {
	switch t.ID() {
	case arrow.NULL:
		return kNull, true
	case arrow.BOOL:
		return kBool, true
	case arrow.INT8:
		return kInt8, true
	case arrow.INT16:
		return kInt16, true
	case arrow.INT32:
		return kInt32, true
	case arrow.INT64:
		return kInt64, true
	case arrow.FLOAT32:
		return kFloat32, true
	case arrow.FLOAT64:
		return kFloat64, true
	case arrow.DECIMAL128:
		return kDecimal, true
	case arrow.STRING:
		return kString, true
	case arrow.DATE32:
		return kDate, true
	case arrow.TIMESTAMP:
		return kTimestamp, true
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return kInterval, true
	case arrow.STRUCT:
		return kStruct, true
	case arrow.LIST:
		return kList, true
	case arrow.MAP:
		return kMap, true
	}
	return 0, false
}

// scalar holds what converting text into one scalar column needs.
type scalar struct {
	kind     kind
	typ      arrow.DataType
	prec     int32
	scale    int32
	tsUnit   arrow.TimeUnit
	tsLayout string // Go layout from Options.TimestampFormat, or ""
	iso      isoMemo
}

func newScalar(t arrow.DataType, k kind, tsLayout string) scalar {
	s := scalar{kind: k, typ: t, tsLayout: tsLayout}
	switch tt := t.(type) {
	case *arrow.Decimal128Type:
		s.prec, s.scale = tt.Precision, tt.Scale
	case *arrow.TimestampType:
		s.tsUnit = tt.Unit
	}
	return s
}

// bstr views b as a string without copying; the string must not outlive
// b's next modification.
func bstr(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// parseInt reads a decimal integer; a number with a fraction or exponent
// is accepted when its value is integral ("1.0", "1e3"). A value outside
// BIGINT is not a number it can read (false), never a wrapped one.
func parseInt(s []byte) (int64, bool) {
	// Eighteen digits always fit in an int64; a 19th may not
	// (9223372036854775808), so longer text takes the checked path.
	if len(s) == 0 || len(s) > 18 {
		return parseIntSlow(s)
	}
	i, neg := 0, false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		i = 1
		if len(s) == 1 {
			return 0, false
		}
	}
	var n int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return parseIntSlow(s)
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

func parseIntSlow(s []byte) (int64, bool) {
	str := strings.TrimSpace(bstr(s))
	if n, err := strconv.ParseInt(str, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(str, 64)
	if err != nil || f != math.Trunc(f) || f < -9.223372036854775e18 || f > 9.223372036854775e18 {
		return 0, false
	}
	return int64(f), true
}

func parseFloat(s []byte) (float64, bool) {
	if f, ok := shortDecimal(s); ok {
		return f, true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(bstr(s)), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// shortDecimal parses -?D+(.D+)? of at most 15 digits, the shape of
// most logged numbers, without strconv's generality: the digits as an
// integer (exact below 2^53) divided by a power of ten (exact up to
// 1e22) is one correctly rounded division, so the result is exactly
// strconv.ParseFloat's.
func shortDecimal(s []byte) (float64, bool) {
	i := 0
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		i++
	}
	var m uint64
	nd, frac := 0, -1
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			m = m*10 + uint64(c-'0')
			nd++
			continue
		}
		if c == '.' && frac < 0 && nd > 0 {
			frac = nd
			continue
		}
		return 0, false
	}
	if nd == 0 || nd > 15 || frac == nd {
		return 0, false
	}
	f := float64(m)
	if frac >= 0 {
		f /= pow10[nd-frac]
	}
	if neg {
		f = -f
	}
	return f, true
}

var pow10 = [16]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

func parseBool(s []byte) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(bstr(s))) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// epochMicros reads an epoch number by its magnitude: seconds below 1e11
// (until year 5138), milliseconds below 1e14, microseconds below 1e17,
// nanoseconds above (a nanosecond clock reads ~1.7e18 today).
func epochMicros(f float64) (int64, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	a := math.Abs(f)
	switch {
	case a < 1e11:
		return int64(math.Round(f * 1e6)), true
	case a < 1e14:
		return int64(math.Round(f * 1e3)), true
	case a < 1e17:
		return int64(f), true
	case a < 9.2e21:
		return int64(f / 1e3), true
	}
	return 0, false
}

func epochMicrosInt(n int64) int64 {
	a := n
	if a < 0 {
		a = -a
	}
	switch {
	case a < 0: // math.MinInt64, whose negation wraps: a nanosecond clock
		return n / 1000
	case a < 1e11:
		return n * 1_000_000
	case a < 1e14:
		return n * 1000
	case a < 1e17:
		return n
	}
	return n / 1000
}

// parseTimestampText reads a TIMESTAMP from a string: the configured
// layout first, then ISO-8601, then an epoch number.
func (c *scalar) parseTimestampText(s []byte) (int64, bool) {
	str := bstr(s)
	if c.tsLayout != "" {
		if t, err := time.Parse(c.tsLayout, strings.TrimSpace(str)); err == nil {
			return t.UnixMicro(), true
		}
	}
	if us, ok := c.iso.fastISO(s); ok {
		return us, true
	}
	if us, ok := types.ParseTimestamp(str); ok {
		return us, true
	}
	if len(s) > 0 && (s[0] >= '0' && s[0] <= '9' || s[0] == '-') {
		if n, ok := parseInt(s); ok {
			return epochMicrosInt(n), true
		}
		if f, ok := parseFloat(s); ok {
			return epochMicros(f)
		}
	}
	return 0, false
}

func toUnit(us int64, u arrow.TimeUnit) arrow.Timestamp {
	switch u {
	case arrow.Second:
		return arrow.Timestamp(floorDiv(us, 1_000_000))
	case arrow.Millisecond:
		return arrow.Timestamp(floorDiv(us, 1000))
	case arrow.Nanosecond:
		return arrow.Timestamp(us * 1000)
	}
	return arrow.Timestamp(us)
}

// fitsUnit reports whether us micros can be held in unit u: nanoseconds
// span only the years 1677 to 2262.
func fitsUnit(us int64, u arrow.TimeUnit) bool {
	return u != arrow.Nanosecond || us >= math.MinInt64/1000 && us <= math.MaxInt64/1000
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func (c *scalar) parseDateText(s []byte) (int32, bool) {
	if d, ok := types.ParseDate(bstr(s)); ok {
		return d, true
	}
	if us, ok := c.parseTimestampText(s); ok {
		return int32(floorDiv(us, 86400_000_000)), true
	}
	return 0, false
}

func parseDecimal(s []byte, prec, scale int32) (decimal128.Num, bool) {
	str := strings.TrimSpace(bstr(s))
	if str == "" || strings.ContainsAny(str, "iInN") { // inf, nan: big.Float cannot take them
		return decimal128.Num{}, false
	}
	n, err := decimal128.FromString(str, prec, scale)
	if err != nil {
		return decimal128.Num{}, false
	}
	return n, true
}

// appendUTF8 appends s to a string builder, replacing invalid UTF-8 with
// U+FFFD so one bad byte never poisons a batch.
func appendUTF8(b *array.StringBuilder, s []byte) {
	if utf8.Valid(s) {
		b.BinaryBuilder.Append(s)
		return
	}
	b.BinaryBuilder.Append(bytes.ToValidUTF8(s, []byte("\uFFFD")))
}

// validUTF8 returns s as a valid UTF-8 string.
func validUTF8(s []byte) string {
	if utf8.Valid(s) {
		return string(s)
	}
	return string(bytes.ToValidUTF8(s, []byte("\uFFFD")))
}

// appendText appends the value the text s denotes. isNum says s is a JSON
// number literal rather than string content (it only matters for
// timestamps and dates, where a number is an epoch, not a date string).
func (c *scalar) appendText(b array.Builder, s []byte, isNum bool) string {
	switch c.kind {
	case kNull:
		if b != nil {
			b.AppendNull()
		}
		return ""
	case kString:
		if b != nil {
			appendUTF8(b.(*array.StringBuilder), s)
		}
		return ""
	case kBool:
		v, ok := parseBool(s)
		if !ok {
			return c.bad(b, s)
		}
		if b != nil {
			b.(*array.BooleanBuilder).Append(v)
		}
	case kInt8, kInt16, kInt32, kInt64:
		v, ok := parseInt(s)
		if !ok {
			return c.bad(b, s)
		}
		switch c.kind {
		case kInt8:
			if v < math.MinInt8 || v > math.MaxInt8 {
				return c.bad(b, s)
			}
			if b != nil {
				b.(*array.Int8Builder).Append(int8(v))
			}
		case kInt16:
			if v < math.MinInt16 || v > math.MaxInt16 {
				return c.bad(b, s)
			}
			if b != nil {
				b.(*array.Int16Builder).Append(int16(v))
			}
		case kInt32:
			if v < math.MinInt32 || v > math.MaxInt32 {
				return c.bad(b, s)
			}
			if b != nil {
				b.(*array.Int32Builder).Append(int32(v))
			}
		default:
			if b != nil {
				b.(*array.Int64Builder).Append(v)
			}
		}
	case kFloat32, kFloat64:
		v, ok := parseFloat(s)
		if !ok {
			return c.bad(b, s)
		}
		if b != nil {
			if c.kind == kFloat32 {
				b.(*array.Float32Builder).Append(float32(v))
			} else {
				b.(*array.Float64Builder).Append(v)
			}
		}
	case kDecimal:
		v, ok := parseDecimal(s, c.prec, c.scale)
		if !ok {
			return c.bad(b, s)
		}
		if b != nil {
			b.(*array.Decimal128Builder).Append(v)
		}
	case kTimestamp:
		var us int64
		var ok bool
		if isNum {
			if n, iok := parseInt(s); iok && bytes.IndexAny(s, ".eE") < 0 {
				us, ok = epochMicrosInt(n), true
			} else if f, fok := parseFloat(s); fok {
				us, ok = epochMicros(f)
			}
		} else {
			us, ok = c.parseTimestampText(s)
		}
		if !ok || !fitsUnit(us, c.tsUnit) {
			return c.bad(b, s)
		}
		if b != nil {
			b.(*array.TimestampBuilder).Append(toUnit(us, c.tsUnit))
		}
	case kDate:
		var d int32
		var ok bool
		if isNum {
			var n int64
			n, ok = parseInt(s)
			ok = ok && n >= math.MinInt32 && n <= math.MaxInt32
			d = int32(n)
		} else {
			d, ok = c.parseDateText(s)
		}
		if !ok {
			return c.bad(b, s)
		}
		if b != nil {
			b.(*array.Date32Builder).Append(arrow.Date32(d))
		}
	case kInterval:
		if isNum {
			return c.bad(b, s)
		}
		iv, ok := parseIntervalText(bstr(s))
		if !ok {
			return c.bad(b, s)
		}
		if b != nil {
			b.(*array.MonthDayNanoIntervalBuilder).Append(iv)
		}
	default:
		return c.bad(b, s)
	}
	return ""
}

func (c *scalar) bad(b array.Builder, s []byte) string {
	if b != nil {
		b.AppendNull()
	}
	const max = 64
	shown := s
	if len(shown) > max {
		shown = shown[:max]
	}
	return "cannot read " + strconv.Quote(validUTF8(shown)) + " as " + types.SQLName(c.typ)
}

// goLayout turns a Java/Spark pattern (yyyy-MM-dd HH:mm:ss.SSS) into a Go
// layout; a pattern that already looks like a Go layout is kept.
func goLayout(p string) string {
	if p == "" || strings.Contains(p, "2006") {
		return p
	}
	repl := []struct{ java, goLay string }{
		{"yyyy", "2006"}, {"yy", "06"}, {"MMMM", "January"}, {"MMM", "Jan"}, {"MM", "01"},
		{"dd", "02"}, {"HH", "15"}, {"hh", "03"}, {"mm", "04"}, {"ss", "05"},
		{"SSSSSSSSS", "000000000"}, {"SSSSSS", "000000"}, {"SSS", "000"},
		{"a", "PM"}, {"XXX", "Z07:00"}, {"XX", "Z0700"}, {"X", "Z07"}, {"Z", "-0700"}, {"z", "MST"},
		{"EEEE", "Monday"}, {"EEE", "Mon"},
	}
	var out strings.Builder
	for i := 0; i < len(p); {
		if p[i] == '\'' { // quoted literal text
			j := strings.IndexByte(p[i+1:], '\'')
			if j < 0 {
				out.WriteString(p[i+1:])
				break
			}
			out.WriteString(p[i+1 : i+1+j])
			i += j + 2
			continue
		}
		matched := false
		for _, r := range repl {
			if strings.HasPrefix(p[i:], r.java) {
				out.WriteString(r.goLay)
				i += len(r.java)
				matched = true
				break
			}
		}
		if !matched {
			if p[i] == 'M' {
				out.WriteString("1")
			} else if p[i] == 'd' {
				out.WriteString("2")
			} else if p[i] == 'H' {
				out.WriteString("15")
			} else {
				out.WriteByte(p[i])
			}
			i++
		}
	}
	return out.String()
}

// fastISO parses the common shape YYYY-MM-DD[T ]HH:MM:SS[.f{1,9}][Z|±HH:MM|±HHMM]
// without time.Parse's generality (it is ~5x faster, and timestamps are
// in every log line). Anything else is left to types.ParseTimestamp.
func fastISO(s []byte) (int64, bool) {
	base, ok := isoHour(s)
	if !ok {
		return 0, false
	}
	return isoRest(s, base)
}

// isoHour reads the YYYY-MM-DD[T ]HH: that starts s (of at least 19
// bytes) as seconds since the epoch.
func isoHour(s []byte) (int64, bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' {
		return 0, false
	}
	y, ok1 := digits(s, 0, 4)
	mo, ok2 := digits(s, 5, 7)
	d, ok3 := digits(s, 8, 10)
	h, ok4 := digits(s, 11, 13)
	if !(ok1 && ok2 && ok3 && ok4) || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 {
		return 0, false
	}
	return types.DaysFromCivil(int64(y), int64(mo), int64(d))*86400 + int64(h*3600), true
}

// isoRest reads the MM:SS[.f{1,9}][Z|±HH:MM|±HHMM] after isoHour's part
// and returns the timestamp in microseconds.
func isoRest(s []byte, base int64) (int64, bool) {
	if s[16] != ':' {
		return 0, false
	}
	mi, ok5 := digits(s, 14, 16)
	se, ok6 := digits(s, 17, 19)
	if !(ok5 && ok6) || mi > 59 || se > 59 {
		return 0, false
	}
	i := 19
	var frac int64
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if i-start < 6 {
				frac = frac*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == start || i-start > 9 {
			return 0, false
		}
		// Microseconds: digits past the sixth are dropped, as before.
		frac *= microScale[min(i-start, 6)]
	}
	off := 0
	if i < len(s) {
		switch s[i] {
		case 'Z', 'z':
			i++
		case '+', '-':
			sign := 1
			if s[i] == '-' {
				sign = -1
			}
			rest := s[i+1:]
			var oh, om int
			var ok bool
			switch {
			case len(rest) == 5 && rest[2] == ':':
				oh, ok = digits(s, i+1, i+3)
				if ok {
					om, ok = digits(s, i+4, i+6)
				}
			case len(rest) == 4:
				oh, ok = digits(s, i+1, i+3)
				if ok {
					om, ok = digits(s, i+3, i+5)
				}
			}
			if !ok || oh > 23 || om > 59 {
				return 0, false
			}
			off = sign * (oh*3600 + om*60)
			i = len(s)
		default:
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	secs := base + int64(mi*60+se) - int64(off)
	return secs*1_000_000 + frac, true
}

// isoMemo remembers the date and hour of the last timestamp fastISO
// read: log timestamps mostly share them with the row before, and then
// only minutes, seconds and the rest are read.
type isoMemo struct {
	lo, hi uint64 // bytes 0-7 and 6-13 (YYYY-MM-DD[T ]HH:) of that timestamp
	base   int64  // what isoHour made of them
	ok     bool
}

// fastISO is the package's fastISO, with the memo.
func (m *isoMemo) fastISO(s []byte) (int64, bool) {
	if len(s) < 19 {
		return 0, false
	}
	lo, hi := binary.LittleEndian.Uint64(s), binary.LittleEndian.Uint64(s[6:])
	if !m.ok || lo != m.lo || hi != m.hi {
		base, ok := isoHour(s)
		if !ok {
			return 0, false
		}
		*m = isoMemo{lo: lo, hi: hi, base: base, ok: true}
	}
	return isoRest(s, m.base)
}

// microScale[n] turns n fraction digits into microseconds.
var microScale = [7]int64{1_000_000, 100_000, 10_000, 1_000, 100, 10, 1}

// digits reads s[a:b] as a decimal number.
func digits(s []byte, a, b int) (int, bool) {
	if b > len(s) {
		return 0, false
	}
	n := 0
	for _, c := range s[a:b] {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// parseIntervalText reads an interval as SQL users write it ("5 minutes",
// "1 day 2 hours") or as Sluice displays it ("1 month 2 days 1h5m0s", a
// Go duration last), so values copied from query output read back.
func parseIntervalText(s string) (arrow.MonthDayNanoInterval, bool) {
	if iv, err := types.ParseInterval(s); err == nil {
		return iv, true
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return arrow.MonthDayNanoInterval{}, false
	}
	d, err := time.ParseDuration(fields[len(fields)-1])
	if err != nil {
		return arrow.MonthDayNanoInterval{}, false
	}
	var iv arrow.MonthDayNanoInterval
	if len(fields) > 1 {
		if iv, err = types.ParseInterval(strings.Join(fields[:len(fields)-1], " ")); err != nil {
			return arrow.MonthDayNanoInterval{}, false
		}
	}
	iv.Nanoseconds += int64(d)
	return iv, true
}
