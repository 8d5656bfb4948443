package functions

// javafmt.go: java.util.Formatter, as Spark's format_string/printf use
// it (Locale.US). Spark hands the Formatter its internal values, so the
// Java class of each argument follows the SQL type:
//
//	BOOLEAN Boolean   TINYINT Byte   SMALLINT Short   INT, DATE Integer
//	BIGINT, TIMESTAMP Long (micros)  FLOAT Float      DOUBLE Double
//	DECIMAL Spark's Decimal (so %s only: %d %f %e refuse it)
//	STRING UTF8String (%s only)      ARRAY, STRUCT, MAP Spark's data
//
// and each conversion accepts the classes Java accepts; anything else
// is an error naming the function, the conversion and the SQL type
// (Java: "f != java.lang.Integer"). Floating-point conversions round
// half-up on the shortest decimal digits of the double, as Java does
// (%.1f of 0.15 is 0.2, %.0f of 2.5 is 3).

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

type jfKind uint8

const (
	jfNull jfKind = iota
	jfBool
	jfByte
	jfShort
	jfInt
	jfLong
	jfFloat
	jfDouble
	jfDecimal // s: BigDecimal text (plain, with its scale)
	jfString
	jfOther // s: Spark's toString of the value; refused by %h
)

// jfArg is one argument as java.util.Formatter sees it.
type jfArg struct {
	kind jfKind
	i    int64
	f    float64
	s    string
	sql  string // SQL type name, for errors
}

// jfSpec is one parsed %[index$][flags][width][.precision]conversion.
type jfSpec struct {
	text      string // the specifier as written, for errors
	index     int    // 0 ordinary, -1 relative (<), else explicit 1-based
	flags     string // in order of appearance, without '<'
	width     int    // -1 when absent
	precision int    // -1 when absent
	conv      byte
}

func (s *jfSpec) has(f byte) bool { return strings.IndexByte(s.flags, f) >= 0 }

// jfPiece is literal text or a specifier.
type jfPiece struct {
	lit  string
	spec *jfSpec
}

// jfErr reports a format error; the caller names the function (the
// binder at bind time, the kernel wrapper at run time), so fn is only
// kept for call sites that want it.
func jfErr(_ string, format string, a ...any) error {
	return fmt.Errorf(format, a...)
}

// parseJavaFormat splits a format string into text and specifiers and
// runs Java's per-specifier checks (flags, width, precision).
func parseJavaFormat(fn, f string) ([]jfPiece, error) {
	var out []jfPiece
	lit := strings.Builder{}
	for i := 0; i < len(f); {
		c := f[i]
		if c != '%' {
			lit.WriteByte(c)
			i++
			continue
		}
		sp, n, err := parseJavaSpec(fn, f[i:])
		if err != nil {
			return nil, err
		}
		if lit.Len() > 0 {
			out = append(out, jfPiece{lit: lit.String()})
			lit.Reset()
		}
		out = append(out, jfPiece{spec: sp})
		i += n
	}
	if lit.Len() > 0 {
		out = append(out, jfPiece{lit: lit.String()})
	}
	return out, nil
}

func digitsAt(s string, i int) int {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j
}

// parseJavaSpec parses the specifier at the start of s (which begins
// with '%'), like Java's %(\d+\$)?([-#+ 0,(\<]*)?(\d+)?(\.\d+)?([tT])?([a-zA-Z%]).
func parseJavaSpec(fn, s string) (*jfSpec, int, error) {
	sp := &jfSpec{width: -1, precision: -1}
	i := 1
	if j := digitsAt(s, i); j > i && j < len(s) && s[j] == '$' {
		k, err := strconv.Atoi(s[i:j])
		if err != nil || k > math.MaxInt32 {
			return nil, 0, jfErr(fn, "argument index %s$ is too large", s[i:j])
		}
		if k == 0 {
			return nil, 0, jfErr(fn, "[INVALID_PARAMETER_VALUE.ZERO_INDEX] argument indexes count from 1: expects %%1$, %%2$ and so on, but got %%0$")
		}
		sp.index = k
		i = j + 1
	}
	for i < len(s) && strings.IndexByte("-#+ 0,(<", s[i]) >= 0 {
		if s[i] == '<' {
			if sp.index == -1 {
				return nil, 0, jfErr(fn, "duplicate flag '<' in %q", s[:i+1])
			}
			sp.index = -1
		} else {
			if sp.has(s[i]) {
				return nil, 0, jfErr(fn, "duplicate flag '%c' in format specifier %q", s[i], s[:i+1])
			}
			sp.flags += string(s[i])
		}
		i++
	}
	if j := digitsAt(s, i); j > i {
		w, err := strconv.Atoi(s[i:j])
		if err != nil || w > math.MaxInt32 {
			return nil, 0, jfErr(fn, "width %s is too large", s[i:j])
		}
		sp.width, i = w, j
	}
	if i < len(s) && s[i] == '.' {
		j := digitsAt(s, i+1)
		if j == i+1 {
			return nil, 0, jfUnknown(fn, s, i)
		}
		p, err := strconv.Atoi(s[i+1 : j])
		if err != nil || p > math.MaxInt32 {
			return nil, 0, jfErr(fn, "precision %s is too large", s[i+1:j])
		}
		sp.precision, i = p, j
	}
	if i >= len(s) {
		return nil, 0, jfUnknown(fn, s, i)
	}
	c := s[i]
	if c == 't' || c == 'T' {
		return nil, 0, jfErr(fn, "date/time conversions (%%%c) are not supported: Spark passes TIMESTAMP as microseconds, format it with date_format instead", c)
	}
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '%') {
		return nil, 0, jfUnknown(fn, s, i)
	}
	sp.conv = c
	sp.text = s[:i+1]
	if err := sp.check(fn); err != nil {
		return nil, 0, err
	}
	return sp, i + 1, nil
}

func jfUnknown(fn, s string, i int) error {
	c := "%"
	if i < len(s) {
		c = s[i : i+1]
	}
	return jfErr(fn, "unknown format conversion '%s' in %q", c, s[:min(len(s), i+1)])
}

// check is Java's FormatSpecifier validation.
func (sp *jfSpec) check(fn string) error {
	bad := func(flags string) error {
		for _, f := range []byte(flags) {
			if sp.has(f) {
				return jfErr(fn, "flag '%c' does not apply to %%%c (in %q)", f, sp.conv, sp.text)
			}
		}
		return nil
	}
	noPrecision := func() error {
		if sp.precision >= 0 {
			return jfErr(fn, "%%%c takes no precision (in %q)", sp.conv, sp.text)
		}
		return nil
	}
	needWidth := func(flags string) error {
		for _, f := range []byte(flags) {
			if sp.has(f) && sp.width < 0 {
				return jfErr(fn, "flag '%c' needs a width (in %q)", f, sp.text)
			}
		}
		return nil
	}
	numeric := func() error {
		if err := needWidth("-0"); err != nil {
			return err
		}
		if sp.has('+') && sp.has(' ') || sp.has('-') && sp.has('0') {
			return jfErr(fn, "flags %q cannot be combined (in %q)", sp.flags, sp.text)
		}
		return nil
	}
	switch sp.conv {
	case 'b', 'B', 'h', 'H', 's', 'S':
		if err := needWidth("-"); err != nil {
			return err
		}
		if sp.conv != 's' && sp.conv != 'S' {
			if err := bad("#"); err != nil {
				return err
			}
		}
		// '#' needs java.util.Formattable, which no Spark value is.
		return bad("#+ 0,(")
	case 'c', 'C':
		if err := noPrecision(); err != nil {
			return err
		}
		if err := bad("#+ 0,("); err != nil {
			return err
		}
		return needWidth("-")
	case 'd':
		if err := noPrecision(); err != nil {
			return err
		}
		if err := numeric(); err != nil {
			return err
		}
		return bad("#")
	case 'o', 'x', 'X':
		if err := noPrecision(); err != nil {
			return err
		}
		if err := numeric(); err != nil {
			return err
		}
		// '+', ' ' and '(' are refused when the value prints (Java
		// takes them for BigInteger only): a NULL still prints "null".
		return bad(",")
	case 'e', 'E', 'f', 'g', 'G', 'a', 'A':
		if err := numeric(); err != nil {
			return err
		}
		switch sp.conv {
		case 'e', 'E':
			return bad(",")
		case 'g', 'G':
			return bad("#")
		case 'a', 'A':
			return bad("(,")
		}
		return nil
	case '%':
		if err := noPrecision(); err != nil {
			return err
		}
		if len(strings.Trim(sp.flags, "-")) > 0 {
			return jfErr(fn, "%%%% takes only the '-' flag (in %q)", sp.text)
		}
		return needWidth("-")
	case 'n':
		if sp.width >= 0 || sp.precision >= 0 || sp.flags != "" {
			return jfErr(fn, "%%n takes no flags, width or precision (in %q)", sp.text)
		}
		return nil
	}
	return jfErr(fn, "unknown format conversion '%c' in %q", sp.conv, sp.text)
}

// javaFormat is String.format(Locale.US, format, args...).
func javaFormat(fn string, pieces []jfPiece, args []jfArg) (string, error) {
	var b strings.Builder
	ordinary, last := 0, -1
	for _, p := range pieces {
		sp := p.spec
		if sp == nil {
			b.WriteString(p.lit)
			continue
		}
		switch sp.conv {
		case '%':
			b.WriteString(justify(sp, "%"))
			continue
		case 'n':
			b.WriteByte('\n')
			continue
		}
		k := 0
		switch {
		case sp.index == -1:
			k = last
		case sp.index > 0:
			k = sp.index - 1
		default:
			k = ordinary
			ordinary++
		}
		if k < 0 || k >= len(args) {
			return "", jfErr(fn, "format specifier '%s' has no argument", sp.text)
		}
		last = k
		s, err := formatJavaArg(fn, sp, args[k], k+1)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

func isUpperConv(c byte) bool { return c >= 'A' && c <= 'Z' }

// javaUpper is String.toUpperCase(Locale.US), ß included.
func javaUpper(s string) string {
	return strings.ToUpper(strings.ReplaceAll(s, "ß", "SS"))
}

// justify pads to the width with spaces, on the left unless '-'.
func justify(sp *jfSpec, s string) string {
	n := len([]rune(s))
	if sp.width <= n {
		return s
	}
	pad := strings.Repeat(" ", sp.width-n)
	if sp.has('-') {
		return s + pad
	}
	return pad + s
}

// printText is Java's print(String): precision cuts, then case, then width.
func printText(sp *jfSpec, s string) string {
	if sp.precision >= 0 {
		if r := []rune(s); len(r) > sp.precision {
			s = string(r[:sp.precision])
		}
	}
	if isUpperConv(sp.conv) {
		s = javaUpper(s)
	}
	return justify(sp, s)
}

var jfJavaClass = map[jfKind]string{
	jfBool: "java.lang.Boolean", jfByte: "java.lang.Byte", jfShort: "java.lang.Short",
	jfInt: "java.lang.Integer", jfLong: "java.lang.Long", jfFloat: "java.lang.Float",
	jfDouble: "java.lang.Double", jfDecimal: "org.apache.spark.sql.types.Decimal",
	jfString: "org.apache.spark.unsafe.types.UTF8String",
}

func mismatch(fn string, sp *jfSpec, a jfArg, pos int) error {
	cls := jfJavaClass[a.kind]
	if cls == "" {
		cls = "a Spark " + a.sql + " value"
	}
	return jfErr(fn, "%%%c cannot format argument %d of type %s (Java: %c != %s)", sp.conv, pos, a.sql, sp.conv, cls)
}

func formatJavaArg(fn string, sp *jfSpec, a jfArg, pos int) (string, error) {
	c := sp.conv
	if a.kind == jfNull {
		switch c {
		case 'b', 'B':
			return printText(sp, "false"), nil
		}
		return printText(sp, "null"), nil
	}
	switch c {
	case 's', 'S':
		return printText(sp, javaToString(a)), nil
	case 'b', 'B':
		if a.kind == jfBool {
			return printText(sp, strconv.FormatBool(a.i != 0)), nil
		}
		return printText(sp, "true"), nil
	case 'h', 'H':
		h, ok := javaHashCode(a)
		if !ok {
			return "", jfErr(fn, "%%%c cannot format argument %d of type %s: Spark hashes its internal form", c, pos, a.sql)
		}
		return printText(sp, strconv.FormatUint(uint64(uint32(h)), 16)), nil
	case 'c', 'C':
		switch a.kind {
		case jfByte, jfShort, jfInt:
		default:
			return "", mismatch(fn, sp, a, pos)
		}
		if a.i < 0 || a.i > 0x10FFFF {
			return "", jfErr(fn, "%%%c: argument %d is not a Unicode code point (0x%X)", c, pos, uint32(a.i))
		}
		return printText(sp, string(rune(a.i))), nil
	case 'd', 'o', 'x', 'X':
		bitsN := 0
		switch a.kind {
		case jfByte:
			bitsN = 8
		case jfShort:
			bitsN = 16
		case jfInt:
			bitsN = 32
		case jfLong:
			bitsN = 64
		default:
			return "", mismatch(fn, sp, a, pos)
		}
		if c == 'd' {
			return formatJavaDecimalInt(sp, a.i), nil
		}
		for _, f := range []byte("+ (") {
			if sp.has(f) {
				return "", jfErr(fn, "flag '%c' does not apply to %%%c of argument %d of type %s (in %q)", f, c, pos, a.sql, sp.text)
			}
		}
		return formatJavaRadix(sp, a.i, bitsN), nil
	case 'e', 'E', 'f', 'g', 'G', 'a', 'A':
		if a.kind != jfFloat && a.kind != jfDouble {
			return "", mismatch(fn, sp, a, pos)
		}
		return formatJavaFloat(sp, a.f), nil
	}
	return "", jfErr(fn, "unknown format conversion '%c'", c)
}

// groupDigits inserts ',' every three digits of an integer part.
func groupDigits(d string) string {
	if len(d) <= 3 {
		return d
	}
	var b strings.Builder
	for i := 0; i < len(d); i++ {
		if i > 0 && (len(d)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(d[i])
	}
	return b.String()
}

// magnitude is Java's localizedMagnitude: group the integer part when
// ',' is set, then zero-pad (after the sign already in prefix) to width.
func magnitude(sp *jfSpec, prefix, digits, suffix string) string {
	ip, fp, hasDot := strings.Cut(digits, ".")
	if sp.has(',') {
		ip = groupDigits(ip)
	}
	m := ip
	if hasDot {
		m += "." + fp
	}
	if sp.has('0') && sp.width >= 0 {
		if n := sp.width - len(prefix) - len(m) - len(suffix); n > 0 {
			m = strings.Repeat("0", n) + m
		}
	}
	return prefix + m + suffix
}

func signs(sp *jfSpec, neg bool) (string, string) {
	switch {
	case neg && sp.has('('):
		return "(", ")"
	case neg:
		return "-", ""
	case sp.has('+'):
		return "+", ""
	case sp.has(' '):
		return " ", ""
	}
	return "", ""
}

func formatJavaDecimalInt(sp *jfSpec, v int64) string {
	neg := v < 0
	d := strconv.FormatUint(uint64(v), 10)
	if neg {
		d = strconv.FormatUint(-uint64(v), 10)
	}
	pre, suf := signs(sp, neg)
	return justify(sp, magnitude(sp, pre, d, suf))
}

func formatJavaRadix(sp *jfSpec, v int64, bitsN int) string {
	u := uint64(v)
	if bitsN < 64 {
		u &= 1<<bitsN - 1
	}
	var s, pre string
	if sp.conv == 'o' {
		s = strconv.FormatUint(u, 8)
		if sp.has('#') {
			pre = "0"
		}
	} else {
		s = strconv.FormatUint(u, 16)
		if sp.has('#') {
			pre = "0x"
		}
	}
	if sp.has('0') && sp.width > len(pre)+len(s) {
		s = strings.Repeat("0", sp.width-len(pre)-len(s)) + s
	}
	out := pre + s
	if sp.conv == 'X' {
		out = strings.ToUpper(out)
	}
	return justify(sp, out)
}

// shortestDigits gives x > 0 as digits d1d2...dn and exponent e with
// x = 0.d1d2...dn * 10^e (Java's FloatingDecimal).
func shortestDigits(x float64) ([]byte, int) {
	s := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	return []byte(strings.Replace(mant, ".", "", 1)), e + 1
}

// roundDigits is FormattedFloatingDecimal.applyPrecision: keep the
// first keep digits, rounding half-up; returns the new exponent.
func roundDigits(d []byte, e, keep int) ([]byte, int) {
	if keep < 0 || keep >= len(d) {
		return d, e
	}
	if keep == 0 {
		if d[0] >= '5' {
			return []byte{'1'}, e + 1
		}
		return []byte{'0'}, e
	}
	out := append([]byte(nil), d[:keep]...)
	if d[keep] >= '5' {
		i := keep - 1
		for i >= 0 && out[i] == '9' {
			out[i] = '0'
			i--
		}
		if i < 0 {
			return append([]byte{'1'}, out[:keep-1]...), e + 1
		}
		out[i]++
	}
	return out, e
}

// fixedDigits renders 0.d * 10^e with prec fraction digits (no rounding).
func fixedDigits(d []byte, e, prec int) string {
	digit := func(k int) byte { // k-th digit after the point of 0.d (0-based)
		if k >= 0 && k < len(d) {
			return d[k]
		}
		return '0'
	}
	var b strings.Builder
	if e <= 0 {
		b.WriteByte('0')
	} else {
		for k := 0; k < e; k++ {
			b.WriteByte(digit(k))
		}
	}
	if prec > 0 {
		b.WriteByte('.')
		for k := 0; k < prec; k++ {
			b.WriteByte(digit(e + k))
		}
	}
	return b.String()
}

func expText(e int) string {
	sign := '+'
	if e < 0 {
		sign, e = '-', -e
	}
	return fmt.Sprintf("%c%02d", sign, e)
}

func formatJavaFloat(sp *jfSpec, x float64) string {
	if math.IsNaN(x) {
		s := "NaN"
		if isUpperConv(sp.conv) {
			s = "NAN"
		}
		return justify(sp, s)
	}
	neg := x < 0 || x == 0 && math.Signbit(x)
	v := math.Abs(x)
	pre, suf := signs(sp, neg)
	if math.IsInf(v, 0) {
		s := "Infinity"
		if isUpperConv(sp.conv) {
			s = "INFINITY"
		}
		return justify(sp, pre+s+suf)
	}
	alt := sp.has('#')
	var body, exp string
	switch sp.conv {
	case 'f':
		prec := sp.precision
		if prec < 0 {
			prec = 6
		}
		if v == 0 {
			body = fixedDigits([]byte{'0'}, 1, prec)
		} else {
			d, e := shortestDigits(v)
			d, e = roundDigits(d, e, e+prec)
			body = fixedDigits(d, e, prec)
		}
		if alt && prec == 0 {
			body += "."
		}
	case 'e', 'E':
		prec := sp.precision
		if prec < 0 {
			prec = 6
		}
		e10 := 0
		d := []byte{'0'}
		if v != 0 {
			var e int
			d, e = shortestDigits(v)
			d, e = roundDigits(d, e, prec+1)
			e10 = e - 1
		}
		body = fixedDigits(d, 1, prec)
		if alt && prec == 0 {
			body += "."
		}
		exp = "e" + expText(e10)
	case 'g', 'G':
		prec := sp.precision
		if prec < 0 {
			prec = 6
		} else if prec == 0 {
			prec = 1
		}
		if v == 0 {
			body = fixedDigits([]byte{'0'}, 1, prec-1)
			break
		}
		d, e := shortestDigits(v)
		d, e = roundDigits(d, e, prec)
		if x := e - 1; x >= -4 && x < prec {
			body = fixedDigits(d, e, prec-e)
		} else {
			body = fixedDigits(d, 1, prec-1)
			exp = "e" + expText(x)
		}
	case 'a', 'A':
		return justify(sp, formatJavaHex(sp, v, pre))
	}
	if isUpperConv(sp.conv) {
		exp = strings.ToUpper(exp)
	}
	return justify(sp, magnitude(sp, pre, body, exp+suf))
}

// javaHexString is Double.toHexString of a finite x >= 0, without "0x".
func javaHexString(x float64) string {
	if x == 0 {
		return "0.0p0"
	}
	b := math.Float64bits(x)
	signif := b&(1<<52-1) | 1<<60
	h := strconv.FormatUint(signif, 16)[3:16]
	h = strings.TrimRight(h, "0")
	if h == "" {
		h = "0"
	}
	if x < 0x1p-1022 {
		return "0." + h + "p-1022"
	}
	return "1." + h + "p" + strconv.Itoa(int(b>>52&0x7ff)-1023)
}

// javaHexDouble is Formatter.hexDouble: x >= 0 finite, prec hex digits
// (0: all), rounding half-even.
func javaHexDouble(x float64, prec int) string {
	if x == 0 || prec == 0 || prec >= 13 {
		return javaHexString(x)
	}
	subnormal := x < 0x1p-1022
	if subnormal {
		x *= 0x1p54
	}
	shift := 53 - (1 + prec*4)
	doppel := math.Float64bits(x)
	sig := (doppel & (1<<63 - 1)) >> shift
	rb := doppel & ^(^uint64(0) << shift)
	leastZero := sig&1 == 0
	round := (uint64(1)<<(shift-1))&rb != 0
	sticky := shift > 1 && (^(uint64(1)<<(shift-1)))&rb != 0
	if leastZero && round && sticky || !leastZero && round {
		sig++
	}
	r := math.Float64frombits(sig << shift)
	if math.IsInf(r, 0) {
		return "1.0p1024"
	}
	s := javaHexString(r)
	if !subnormal {
		return s
	}
	i := strings.IndexByte(s, 'p')
	e, _ := strconv.Atoi(s[i+1:])
	return s[:i] + "p" + strconv.Itoa(e-54)
}

func formatJavaHex(sp *jfSpec, v float64, sign string) string {
	prec := sp.precision
	if prec == 0 {
		prec = 1
	} else if prec < 0 {
		prec = 0
	}
	s := javaHexDouble(v, prec)
	i := strings.IndexByte(s, 'p')
	mant, exp := s[:i], s[i+1:]
	if prec > 0 {
		_, fp, _ := strings.Cut(mant, ".")
		if n := prec - len(fp); n > 0 {
			mant += strings.Repeat("0", n)
		}
	}
	prefix := "0x"
	if sp.has('0') && sp.width >= 0 {
		lead := 2 + len(sign)
		if n := sp.width - len(s) - lead; n > 0 {
			prefix += strings.Repeat("0", n)
		}
	}
	out := sign + prefix + mant + "p" + exp
	if isUpperConv(sp.conv) {
		out = strings.ToUpper(out)
	}
	return out
}

// javaFloatString is Float.toString.
func javaFloatString(x float32) string {
	f := float64(x)
	switch {
	case math.IsNaN(f), math.IsInf(f, 0), f == 0:
		return javaDoubleString(f)
	}
	ax := math.Abs(f)
	if ax >= 1e-3 && ax < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 32)
		if !strings.ContainsRune(s, '.') {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 32)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.ContainsRune(mant, '.') {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// javaBigDecimalString is BigDecimal.toString of a plain decimal text
// (Spark's Decimal.toString): scientific once the exponent is below -6.
func javaBigDecimalString(s string) string {
	neg := strings.HasPrefix(s, "-")
	t := strings.TrimPrefix(s, "-")
	ip, fp, _ := strings.Cut(t, ".")
	coeff := strings.TrimLeft(ip+fp, "0")
	if coeff == "" {
		coeff = "0"
	}
	scale := len(fp)
	adjusted := -scale + len(coeff) - 1
	if adjusted >= -6 {
		return s
	}
	out := coeff[:1]
	if len(coeff) > 1 {
		out += "." + coeff[1:]
	}
	out += "E" + strconv.Itoa(adjusted)
	if neg {
		out = "-" + out
	}
	return out
}

// javaToString is String.valueOf(arg) for %s.
func javaToString(a jfArg) string {
	switch a.kind {
	case jfBool:
		return strconv.FormatBool(a.i != 0)
	case jfByte, jfShort, jfInt, jfLong:
		return strconv.FormatInt(a.i, 10)
	case jfFloat:
		return javaFloatString(float32(a.f))
	case jfDouble:
		return javaDoubleString(a.f)
	case jfDecimal:
		return javaBigDecimalString(a.s)
	}
	return a.s
}

// javaDoubleString is Double.toString (types.FormatDouble).
func javaDoubleString(x float64) string { return types.FormatDouble(x) }

func longHash(v int64) int32 { return int32(v ^ int64(uint64(v)>>32)) }

func doubleHash(x float64) int32 {
	if math.IsNaN(x) {
		x = math.NaN()
	}
	return longHash(int64(math.Float64bits(x)))
}

func floatHash(x float32) int32 {
	if x != x {
		return 0x7fc00000
	}
	return int32(math.Float32bits(x))
}

// javaHashCode is arg.hashCode() for %h; ok is false for values whose
// hash is Spark's internal layout (arrays, maps, structs, binary).
func javaHashCode(a jfArg) (int32, bool) {
	switch a.kind {
	case jfBool:
		if a.i != 0 {
			return 1231, true
		}
		return 1237, true
	case jfByte, jfShort, jfInt:
		return int32(a.i), true
	case jfLong:
		return longHash(a.i), true
	case jfFloat:
		return floatHash(float32(a.f)), true
	case jfDouble:
		return doubleHash(a.f), true
	case jfString:
		return sparkMurmur3Bytes([]byte(a.s), 42), true
	case jfDecimal:
		return scalaBigDecimalHash(a.s), true
	}
	return 0, false
}

// scalaPrimitiveHash is Scala's ## of a long: its int value when it fits.
func scalaPrimitiveHash(v int64) int32 {
	if v == int64(int32(v)) {
		return int32(v)
	}
	return longHash(v)
}

// javaBigIntegerHash is BigInteger.hashCode.
func javaBigIntegerHash(x *big.Int) int32 {
	var h int32
	mag := new(big.Int).Abs(x).Bytes()
	// 32-bit words, most significant first.
	for len(mag)%4 != 0 {
		mag = append([]byte{0}, mag...)
	}
	for i := 0; i < len(mag); i += 4 {
		w := uint32(mag[i])<<24 | uint32(mag[i+1])<<16 | uint32(mag[i+2])<<8 | uint32(mag[i+3])
		h = 31*h + int32(w)
	}
	return h * int32(x.Sign())
}

// scalaBigDecimalHash is scala.math.BigDecimal.hashCode (Spark's
// Decimal.hashCode) of a plain decimal text.
func scalaBigDecimalHash(s string) int32 {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0
	}
	if r.IsInt() {
		n := r.Num()
		if n.IsInt64() {
			return scalaPrimitiveHash(n.Int64())
		}
		return javaBigIntegerHash(n)
	}
	d, _ := strconv.ParseFloat(s, 64)
	if !math.IsInf(d, 0) {
		if r2, ok := new(big.Rat).SetString(strconv.FormatFloat(d, 'g', -1, 64)); ok && r2.Cmp(r) == 0 {
			// Scala's ## of a double: int, long, float or double hash.
			switch {
			case d == math.Trunc(d) && math.Abs(d) < 1<<63:
				return scalaPrimitiveHash(int64(d))
			case float64(float32(d)) == d:
				return floatHash(float32(d))
			}
			return doubleHash(d)
		}
	}
	// stripTrailingZeros, then MurmurHash3.mixLast(unscaled.hashCode, scale).
	neg := strings.HasPrefix(s, "-")
	ip, fp, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	fp = strings.TrimRight(fp, "0")
	u, _ := new(big.Int).SetString(ip+fp, 10)
	if neg {
		u.Neg(u)
	}
	k := uint32(len(fp)) * 0xcc9e2d51
	k = bits.RotateLeft32(k, 15) * 0x1b873593
	return int32(uint32(javaBigIntegerHash(u)) ^ k)
}

// format_string(fmt, args...) and printf: java.util.Formatter over
// Spark's internal values (see the top of this file). A NULL format
// gives NULL; NULL arguments print as "null" (false for %b).
func bindFormatString(args []Arg) (*Bound, error) {
	const fn = "format_string"
	casts, err := coerceArgs(fn, args, pString, pAny)
	if err != nil {
		return nil, err
	}
	if p, ok := constString(args[0]); ok {
		if _, err := parseJavaFormat(fn, p); err != nil {
			return nil, fmt.Errorf("%s: %w", fn, err)
		}
	}
	sqls := make([]string, len(args))
	for j, a := range args {
		sqls[j] = sqlName(a.Type)
	}
	return &Bound{Type: types.String, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		if args[0].DataType().ID() == arrow.NULL {
			return nullArray(types.String, n), nil
		}
		fs := args[0].(*array.String)
		b := array.NewStringBuilder(mem)
		defer b.Release()
		var lastFmt string
		var pieces []jfPiece
		jargs := make([]jfArg, len(args)-1)
		for i := 0; i < n; i++ {
			if fs.IsNull(i) {
				b.AppendNull()
				continue
			}
			if f := fs.Value(i); pieces == nil || f != lastFmt {
				p, err := parseJavaFormat(fn, f)
				if err != nil {
					return nil, err
				}
				pieces, lastFmt = p, strings.Clone(f)
			}
			for j := range jargs {
				jargs[j] = jfArgAt(args[j+1], i, sqls[j+1])
			}
			out, err := javaFormat(fn, pieces, jargs)
			if err != nil {
				return nil, err
			}
			b.Append(out)
		}
		return b.NewArray(), nil
	}}, nil
}

// jfArgAt is row i of a as the Java object Spark would pass.
func jfArgAt(a arrow.Array, i int, sql string) jfArg {
	if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
		return jfArg{kind: jfNull, sql: sql}
	}
	if j, ok := jfScalarAt(a, i, sql); ok {
		return j
	}
	var b strings.Builder
	sparkInternalString(&b, a, i)
	return jfArg{kind: jfOther, s: b.String(), sql: sql}
}

// jfScalarAt is jfArgAt for the types Spark passes as a boxed Java
// primitive, a Decimal or a UTF8String.
func jfScalarAt(a arrow.Array, i int, sql string) (jfArg, bool) {
	j, ok := jfScalar(a, i)
	j.sql = sql
	return j, ok
}

func jfScalar(a arrow.Array, i int) (jfArg, bool) {
	switch a := a.(type) {
	case *array.MonthDayNanoInterval:
		// Day-time intervals are Long microseconds, year-month ones
		// Integer months.
		v := a.Value(i)
		switch {
		case v.Months == 0:
			return jfArg{kind: jfLong, i: int64(v.Days)*86_400_000_000 + v.Nanoseconds/1000}, true
		case v.Days == 0 && v.Nanoseconds == 0:
			return jfArg{kind: jfInt, i: int64(v.Months)}, true
		}
		return jfArg{}, false
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit
		return jfArg{kind: jfLong, i: int64(a.Value(i)) * int64(unit.Multiplier()) / 1000}, true
	case *array.Boolean:
		v := int64(0)
		if a.Value(i) {
			v = 1
		}
		return jfArg{kind: jfBool, i: v}, true
	case *array.Int8:
		return jfArg{kind: jfByte, i: int64(a.Value(i))}, true
	case *array.Int16:
		return jfArg{kind: jfShort, i: int64(a.Value(i))}, true
	case *array.Int32:
		return jfArg{kind: jfInt, i: int64(a.Value(i))}, true
	case *array.Int64:
		return jfArg{kind: jfLong, i: a.Value(i)}, true
	case *array.Date32:
		return jfArg{kind: jfInt, i: int64(a.Value(i))}, true
	case *array.Timestamp:
		return jfArg{kind: jfLong, i: int64(a.Value(i))}, true
	case *array.Float32:
		return jfArg{kind: jfFloat, f: float64(a.Value(i))}, true
	case *array.Float64:
		return jfArg{kind: jfDouble, f: a.Value(i)}, true
	case *array.Decimal128:
		return jfArg{kind: jfDecimal, s: a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)}, true
	case *array.String:
		return jfArg{kind: jfString, s: a.Value(i)}, true
	}
	return jfArg{}, false
}

// sparkInternalString is the toString of Spark's generic internal data:
// arrays and structs as [a,b], maps as "keys: [..], values: [..]",
// DATE as days and TIMESTAMP as microseconds, NULL as null.
func sparkInternalString(b *strings.Builder, a arrow.Array, i int) {
	if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
		b.WriteString("null")
		return
	}
	list := func(vals arrow.Array, start, end int) {
		b.WriteByte('[')
		for j := start; j < end; j++ {
			if j > start {
				b.WriteByte(',')
			}
			sparkInternalString(b, vals, j)
		}
		b.WriteByte(']')
	}
	switch a := a.(type) {
	case *array.List:
		s, e := a.ValueOffsets(i)
		list(a.ListValues(), int(s), int(e))
	case *array.LargeList:
		s, e := a.ValueOffsets(i)
		list(a.ListValues(), int(s), int(e))
	case *array.Map:
		s, e := a.ValueOffsets(i)
		b.WriteString("keys: ")
		list(a.Keys(), int(s), int(e))
		b.WriteString(", values: ")
		list(a.Items(), int(s), int(e))
	case *array.Struct:
		b.WriteByte('[')
		for f := 0; f < a.NumField(); f++ {
			if f > 0 {
				b.WriteByte(',')
			}
			sparkInternalString(b, a.Field(f), i)
		}
		b.WriteByte(']')
	case *array.Binary:
		b.Write(a.Value(i))
	default:
		if j, ok := jfScalar(a, i); ok {
			b.WriteString(javaToString(j))
		} else {
			b.WriteString(types.FormatValue(a, i))
		}
	}
}
