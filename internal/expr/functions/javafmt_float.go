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

	"sluice/internal/types"
)

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
