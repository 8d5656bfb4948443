package functions

import (
	"math"
	"strings"
	"testing"
)

// Every expectation is what pyspark 3.5.3's format_string printed
// (java.util.Formatter on Java 17), for the argument's Spark type.
func TestJavaFormat(t *testing.T) {
	i := func(v int64) jfArg { return jfArg{kind: jfInt, i: v, sql: "INT"} }
	l := func(v int64) jfArg { return jfArg{kind: jfLong, i: v, sql: "BIGINT"} }
	d := func(v float64) jfArg { return jfArg{kind: jfDouble, f: v, sql: "DOUBLE"} }
	s := func(v string) jfArg { return jfArg{kind: jfString, s: v, sql: "STRING"} }
	dec := func(v string) jfArg { return jfArg{kind: jfDecimal, s: v, sql: "DECIMAL"} }
	b := func(v bool) jfArg {
		if v {
			return jfArg{kind: jfBool, i: 1, sql: "BOOLEAN"}
		}
		return jfArg{kind: jfBool, sql: "BOOLEAN"}
	}
	null := jfArg{kind: jfNull, sql: "VOID"}
	tests := []struct {
		format string
		args   []jfArg
		want   string // or the error text, after "error: "
	}{
		// %d and grouping
		{"%,d", []jfArg{i(1234567)}, "1,234,567"},
		{"%,d", []jfArg{l(-1234567890123)}, "-1,234,567,890,123"},
		{"%,10d|", []jfArg{i(12345)}, "    12,345|"},
		{"%,(d", []jfArg{i(-1234)}, "(1,234)"},
		{"%d|%5d|%-5d|%05d|%+d|%(d|% d|%,d", []jfArg{i(42), i(42), i(42), i(42), i(42), i(-42), i(42), i(-1234567)}, "42|   42|42   |00042|+42|(42)| 42|-1,234,567"},
		{"%+,d", []jfArg{i(1234)}, "+1,234"},
		{"%,d|%,d", []jfArg{i(999), i(-1000)}, "999|-1,000"},
		{"%d", []jfArg{i(20517)}, "20517"}, // a DATE is its day number
		// %x %o: two's complement of the Java type
		{"%x|%X|%o|%#x|%#o|%08X", []jfArg{i(255), i(255), i(8), i(255), i(8), i(255)}, "ff|FF|10|0xff|010|000000FF"},
		{"%x|%x|%o", []jfArg{i(-1), l(-1), i(-8)}, "ffffffff|ffffffffffffffff|37777777770"},
		{"%x|%x", []jfArg{{kind: jfByte, i: -1}, {kind: jfShort, i: -1}}, "ff|ffff"},
		{"%05x|%#X|%-#8x|%#08o", []jfArg{i(-1), i(255), i(255), i(8)}, "ffffffff|0XFF|0xff    |00000010"},
		{"%x", []jfArg{l(math.MaxInt64)}, "7fffffffffffffff"},
		// %s of each type
		{"%s", []jfArg{d(1)}, "1.0"},
		{"%s|%s|%s|%s|%s", []jfArg{d(1e8), d(1e7), d(1e-3), d(1e-4), d(123456789.125)}, "1.0E8|1.0E7|0.001|1.0E-4|1.23456789125E8"},
		{"%s|%s|%s", []jfArg{d(math.NaN()), d(math.Inf(-1)), d(math.Copysign(0, -1))}, "NaN|-Infinity|-0.0"},
		{"%s|%s", []jfArg{d(1e20), d(1.7976931348623157e308)}, "1.0E20|1.7976931348623157E308"},
		{"%s|%s", []jfArg{{kind: jfFloat, f: float64(float32(0.1))}, {kind: jfFloat, f: float64(float32(3.4028235e38))}}, "0.1|3.4028235E38"},
		{"%s|%s|%s|%s", []jfArg{dec("1.50"), dec("123.456"), dec("0.00001"), dec("0.000000000100")}, "1.50|123.456|0.00001|1.00E-10"},
		{"%s|%s", []jfArg{dec("0.0000001"), dec("-1.5")}, "1E-7|-1.5"},
		{"%s|%S|%5s|%-5s|%.1s|", []jfArg{s("x"), s("ab"), s("ab"), s("ab"), s("ab")}, "x|AB|   ab|ab   |a|"},
		{"%10.4s|%-10S|%S", []jfArg{s("abcdefg"), s("abc"), s("straße")}, "      abcd|ABC       |STRASSE"},
		{"%s|%S|%s", []jfArg{b(true), b(true), l(1772694489000000)}, "true|TRUE|1772694489000000"},
		{"%.3s|%8s|%-8S|", []jfArg{d(1.5), d(1.5), d(1e20)}, "1.5|     1.5|1.0E20  |"},
		// NULL
		{"%s-%s|%d|%f|%5s|%.2s|%S|%b|%h", []jfArg{s("a"), null, null, null, null, null, null, null, null}, "a-null|null|null| null|nu|NULL|false|null"},
		// %b %c %h
		{"%b|%B|%b|%b|%b", []jfArg{b(true), b(false), null, s("x"), i(0)}, "true|FALSE|false|true|true"},
		{"%b|%.2b|%5b|", []jfArg{s("false"), b(true), b(false)}, "true|tr|false|"},
		{"%c|%C|%5c|%-3c|", []jfArg{i(65), i(97), i(65), i(65)}, "A|A|    A|A  |"},
		{"%c", []jfArg{i(128512)}, "😀"},
		{"%h|%h|%h|%h|%H", []jfArg{s("a"), i(42), l(42), b(true), s("hello")}, "58877852|2a|2a|4cf|C3E28528"},
		{"%h|%h|%h|%h", []jfArg{d(1.5), dec("1.5"), l(-1), i(20517)}, "3ff80000|3fc00000|0|5025"},
		{"%h|%h|%h|%.1h|%10h|", []jfArg{dec("100.0"), dec("3"), dec("1.25"), s("a"), i(42)}, "64|3|3fa00000|5|        2a|"},
		// %f %e %g: half-up on the shortest digits
		{"%f|%.2f|%10.3f|%-10.3f|", []jfArg{d(1.5), d(3.14159), d(3.14159), d(3.14159)}, "1.500000|3.14|     3.142|3.142     |"},
		{"%,.2f|%08.2f|%+.1f|%(.1f|% .1f", []jfArg{d(1234567.891), d(-3.5), d(2), d(-2), d(2)}, "1,234,567.89|-0003.50|+2.0|(2.0)| 2.0"},
		{"%.20f|%.0f|%.0f|%.1f|%.1f|%.1f", []jfArg{d(0.1), d(2.5), d(3.5), d(0.05), d(0.15), d(0.25)}, "0.10000000000000000000|3|4|0.1|0.2|0.3"},
		{"%.2f|%.2f|%f|%.3f", []jfArg{d(1.005), d(1.125), d(1e20), d(1e-10)}, "1.01|1.13|100000000000000000000.000000|0.000"},
		{"%f|%,f|%(,.1f", []jfArg{d(123456789012345678), d(1234.5), d(-1234567.25)}, "123456789012345680.000000|1,234.500000|(1,234,567.3)"},
		{"%f|%.10f", []jfArg{{kind: jfFloat, f: float64(float32(0.1))}, {kind: jfFloat, f: float64(float32(0.1))}}, "0.100000|0.1000000015"},
		{"%e|%.3e|%E|%e|%.0e|%#.0e|%#.0f", []jfArg{d(12345.678), d(1234.5), d(0.000123), d(1e300), d(5), d(5), d(5)}, "1.234568e+04|1.235e+03|1.230000E-04|1.000000e+300|5e+00|5.e+00|5."},
		{"%e|%.2e|%(e|%+e|%010.2e", []jfArg{d(9.9999999), d(9.995), d(-1), d(1), d(-1.5)}, "1.000000e+01|1.00e+01|(1.000000e+00)|+1.000000e+00|-01.50e+00"},
		{"%g|%g|%G|%.3g|%g|%g|%g|%g|%.0g", []jfArg{d(0.0001234), d(123456789), d(1e-5), d(1234.5), d(100000), d(1000000), d(0.0001), d(0.00001), d(5)}, "0.000123400|1.23457e+08|1.00000E-05|1.23e+03|100000|1.00000e+06|0.000100000|1.00000e-05|5"},
		{"%.3g|%g|%g|%,g|%(g|% g|%-10g|", []jfArg{d(9.9995), d(99999.95), d(0.000099999995), d(1234567), d(-1), d(2), d(2)}, "10.0|100000|0.000100000|1.23457e+06|(1.00000)| 2.00000|2.00000   |"},
		{"%f|%08.2f|%e|%g|%A", []jfArg{d(math.NaN()), d(math.Inf(-1)), d(0), d(0), d(math.NaN())}, "NaN|-Infinity|0.000000e+00|0.00000|NAN"},
		// %a: Double.toHexString
		{"%a|%A|%a|%.3a|%a", []jfArg{d(1), d(-0.5), d(0), d(1.0 / 3), {kind: jfFloat, f: 1.5}}, "0x1.0p0|-0X1.0P-1|0x0.0p0|0x1.555p-2|0x1.8p0"},
		{"%a|%a|%a|%.1a|%.0a|%a", []jfArg{d(1e-320), d(3), d(-100.25), d(1.96875), d(1.5), d(math.Inf(1))}, "0x0.00000000007e8p-1022|0x1.8p1|-0x1.91p6|0x1.0p1|0x1.8p0|Infinity"},
		// argument indexes, %% and %n
		{"%%|%n|", nil, "%|\n|"},
		{"%5%|%-5%|", nil, "    %|%    |"},
		{"%2$s %1$s", []jfArg{s("a"), s("b")}, "b a"},
		{"%s %<s %s", []jfArg{s("a"), s("b")}, "a a b"},
		{"%1$s %s %s", []jfArg{s("a"), s("b")}, "a a b"},
		{"%s %1$s %<s %s", []jfArg{s("a"), s("b")}, "a a a b"},
		{"%s %s %s", []jfArg{i(1), i(2), i(3), i(4)}, "1 2 3"},
		{"%ss", []jfArg{s("a")}, "as"},
		// type mismatches (Java: "f != java.lang.Integer")
		{"%f", []jfArg{i(5)}, "error: %f cannot format argument 1 of type INT (Java: f != java.lang.Integer)"},
		{"%.2f", []jfArg{dec("1.5")}, "error: %f cannot format argument 1 of type DECIMAL (Java: f != org.apache.spark.sql.types.Decimal)"},
		{"%d", []jfArg{dec("1.5")}, "error: d != org.apache.spark.sql.types.Decimal"},
		{"%d", []jfArg{s("a")}, "error: %d cannot format argument 1 of type STRING"},
		{"%d", []jfArg{d(1.5)}, "error: d != java.lang.Double"},
		{"%x", []jfArg{d(1.5)}, "error: x != java.lang.Double"},
		{"%e", []jfArg{i(1)}, "error: e != java.lang.Integer"},
		{"%c|%c", []jfArg{i(1), s("A")}, "error: %c cannot format argument 2 of type STRING"},
		{"%c", []jfArg{l(65)}, "error: c != java.lang.Long"},
		{"%c", []jfArg{b(true)}, "error: c != java.lang.Boolean"},
		{"%f", []jfArg{b(true)}, "error: f != java.lang.Boolean"},
		{"%c", []jfArg{i(1114112)}, "error: not a Unicode code point (0x110000)"},
		// bad specifiers
		{"%s %s", []jfArg{s("a")}, "error: format specifier '%s' has no argument"},
		{"%2$s", []jfArg{s("a")}, "error: format specifier '%2$s' has no argument"},
		{"%<s", []jfArg{s("a")}, "error: format specifier '%<s' has no argument"},
		{"%s %0$s", []jfArg{s("a")}, "error: INVALID_PARAMETER_VALUE.ZERO_INDEX"},
		{"%q", []jfArg{i(1)}, "error: unknown format conversion 'q'"},
		{"abc%", []jfArg{i(1)}, "error: unknown format conversion '%'"},
		{"%t", []jfArg{s("a")}, "error: date/time conversions"},
		{"%05s", []jfArg{s("a")}, "error: flag '0' does not apply to %s"},
		{"%#s", []jfArg{s("a")}, "error: flag '#' does not apply to %s"},
		{"%+s", []jfArg{s("a")}, "error: flag '+' does not apply to %s"},
		{"%,x", []jfArg{i(255)}, "error: flag ',' does not apply to %x"},
		{"%(x", []jfArg{i(255)}, "error: flag '(' does not apply to %x"},
		{"<%+012x>|%(o", []jfArg{null, null}, "<        null>|null"},
		{"%,.2e", []jfArg{d(1)}, "error: flag ',' does not apply to %e"},
		{"%#g", []jfArg{d(1)}, "error: flag '#' does not apply to %g"},
		{"%(a", []jfArg{d(1)}, "error: flag '(' does not apply to %a"},
		{"%.2d", []jfArg{i(1)}, "error: %d takes no precision"},
		{"%.2c", []jfArg{i(65)}, "error: %c takes no precision"},
		{"%-d", []jfArg{i(1)}, "error: flag '-' needs a width"},
		{"%-s", []jfArg{s("a")}, "error: flag '-' needs a width"},
		{"%0d", []jfArg{i(1)}, "error: flag '0' needs a width"},
		{"%+ d", []jfArg{i(1)}, "error: cannot be combined"},
		{"%-05d", []jfArg{i(1)}, "error: cannot be combined"},
		{"%--5d", []jfArg{i(1)}, "error: duplicate flag '-'"},
		{"%5n", nil, "error: %n takes no flags, width or precision"},
	}
	for _, tc := range tests {
		got, err := func() (string, error) {
			p, err := parseJavaFormat("format_string", tc.format)
			if err != nil {
				return "", err
			}
			return javaFormat("format_string", p, tc.args)
		}()
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("format_string(%q): got %q, %v; want error containing %q", tc.format, got, err, want)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("format_string(%q): got %q, %v; want %q", tc.format, got, err, tc.want)
		}
	}
}
