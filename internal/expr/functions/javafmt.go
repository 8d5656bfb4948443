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
	"fmt"
	"math"
	"strconv"
	"strings"
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
