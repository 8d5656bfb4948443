package functions

import (
	"strings"
	"testing"
	"time"
)

// The expectations are pyspark 3.5.3's (session time zone UTC).
func TestDatetimePatternFormat(t *testing.T) {
	ts := time.Date(2026, 3, 5, 7, 8, 9, 123456000, time.UTC)
	tests := []struct {
		at      time.Time
		pattern string
		want    string // or the error text, after "error: "
	}{
		{ts, "yyyyMMddHHmmssSSS", "20260305070809123"},
		{ts, "S", "1"},
		{ts, "D", "64"},
		{ts, "DDD", "064"},
		{ts, "SSSSSS SS SSSSSSSSS SSSSSSS", "123456 12 123456000 1234560"},
		{ts, "q Q QQQ QQQQ", "1 1 Q1 1st quarter"},
		{time.Date(2026, 11, 25, 7, 8, 9, 0, time.UTC), "QQQQ qqqq D DD DDD", "4th quarter 4th quarter 329 329 329"},
		{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "D DD DDD", "1 01 001"},
		{ts, "EEEE E MMM MMMM a h K k H", "Thursday Thu Mar March AM 7 7 7 7"},
		{ts, "yy y yyy yyyyy yyyyyy", "26 2026 2026 02026 002026"},
		{ts, "d dd M MM L LL LLL LLLL", "5 05 3 03 3 03 Mar March"},
		{ts, "G GG GGG GGGG", "AD AD AD Anno Domini"},
		{ts, "VV z zzzz O OOOO", "UTC UTC Coordinated Universal Time GMT GMT"},
		{ts, "X XX XXX XXXX XXXXX", "Z Z Z Z Z"},
		{ts, "x xx xxx xxxx xxxxx", "+00 +0000 +00:00 +0000 +00:00"},
		{ts, "Z ZZ ZZZ ZZZZ ZZZZZ", "+0000 +0000 +0000 GMT Z"},
		{time.Date(2026, 3, 5, 0, 8, 9, 0, time.UTC), "h hh K KK k kk H HH a", "12 12 0 00 24 24 0 00 AM"},
		{time.Date(2026, 3, 5, 12, 8, 9, 0, time.UTC), "h hh K KK k kk H HH a", "12 12 0 00 12 12 12 12 PM"},
		{time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC), "F", "3"},
		{ts, "'T' ''", "T '"},
		{ts, "yyyy-MM-dd'T'HH", "2026-03-05T07"},
		{ts, "'o''clock' H", "o'clock 7"},
		{ts, "yyyy[-MM]", "2026-03"},
		{ts, "yyyy-MM-dd -- HH.mm,ss / ; _ !", "2026-03-05 -- 07.08,09 / ; _ !"},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), "G yyyy", "AD 0001"},
		{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), "yy yyyyy", "99 09999"},
		{ts, "", ""},
		// Spark 3's refusals.
		{ts, "MMMMM", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "EEEEE", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "GGGGG", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "yyyyyyy", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "YYYY", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "u", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "w", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "W", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "FF", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "aa", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "ddd", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "DDDD", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "SSSSSSSSSS", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "zzzzz", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "ZZZZZZ", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "yyyy#MM{}", "error: DATETIME_PATTERN_RECOGNITION"},
		{ts, "QQQQQ", "error: too many pattern letters: Q"},
		{ts, "qqqqq", "error: too many pattern letters: q"},
		{ts, "XXXXXX", "error: too many pattern letters: X"},
		{ts, "e", "error: week-based letters (e)"},
		{ts, "c", "error: week-based letters (c)"},
		{ts, "A", "error: illegal pattern letter 'A'"},
		{ts, "n", "error: illegal pattern letter 'n'"},
		{ts, "N", "error: illegal pattern letter 'N'"},
		{ts, "B", "error: illegal pattern letter 'B'"},
		{ts, "b", "error: unknown pattern letter 'b'"},
		{ts, "I", "error: unknown pattern letter 'I'"},
		{ts, "V", "error: V takes exactly 2 letters"},
		{ts, "VVV", "error: V takes exactly 2 letters"},
		{ts, "OO", "error: O takes 1 or 4 letters"},
		{ts, "'unterminated", "error: ends inside a quoted literal"},
	}
	for _, tc := range tests {
		dp, err := compileDT(tc.pattern)
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("date_format(%q): error %v, want one containing %q", tc.pattern, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("date_format(%q): %v", tc.pattern, err)
			continue
		}
		if got := dp.format(tc.at); got != tc.want {
			t.Errorf("date_format(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

// to_timestamp(s, pattern): a time, NULL, or Spark 3's upgrade error
// when only Spark 2's lenient parser takes the text (pyspark 3.5.3).
func TestDatetimePatternParse(t *testing.T) {
	tests := []struct {
		s, pattern, want string // want: UTC time, "NULL", or "error: ..."
	}{
		{"2026-03-05 07:08:09.5", "yyyy-MM-dd HH:mm:ss.S", "2026-03-05 07:08:09.5"},
		{"2026-03-05 07:08:09.12", "yyyy-MM-dd HH:mm:ss.SSS", "2026-03-05 07:08:09.12"},
		{"2026-03-05 07:08:09.1234", "yyyy-MM-dd HH:mm:ss.SSS", "NULL"},
		{"2026-03-05 07:08:09.1234567", "yyyy-MM-dd HH:mm:ss.SSSSSSS", "2026-03-05 07:08:09.123456"},
		{"2026-03-05 07:08:09", "yyyy-MM-dd HH:mm:ss.SSSSSS", "NULL"},
		{"05/03/2026", "dd/MM/yyyy", "2026-03-05 00:00:00"},
		{"2026-064", "yyyy-DDD", "2026-03-05 00:00:00"},
		{"2026-64", "yyyy-D", "2026-03-05 00:00:00"},
		{"2026064", "yyyyDDD", "2026-03-05 00:00:00"},
		{"20260305", "yyyyMMdd", "2026-03-05 00:00:00"},
		{"202603050708", "yyyyMMddHHmm", "2026-03-05 07:08:00"},
		{"0305", "MMdd", "1970-03-05 00:00:00"},
		{"07:08", "HH:mm", "1970-01-01 07:08:00"},
		{"2026-03", "yyyy-MM", "2026-03-01 00:00:00"},
		{"2026-3-5", "yyyy-M-d", "2026-03-05 00:00:00"},
		{"26-03-05", "yy-MM-dd", "2026-03-05 00:00:00"},
		{"99-03-05", "yy-MM-dd", "2099-03-05 00:00:00"},
		{"5 MAR 2026", "d MMM yyyy", "2026-03-05 00:00:00"},
		{"march 2026", "MMMM yyyy", "2026-03-01 00:00:00"},
		{"AD 2026-03-05", "G yyyy-MM-dd", "2026-03-05 00:00:00"},
		{"2026-03-05T07:08:09Z", "yyyy-MM-dd'T'HH:mm:ssX", "2026-03-05 07:08:09"},
		{"2026-03-05 7:08 PM", "yyyy-MM-dd h:mm a", "2026-03-05 19:08:00"},
		{"2026-03-05 12 AM", "yyyy-MM-dd hh a", "2026-03-05 00:00:00"},
		{"2026-03-05 0 PM", "yyyy-MM-dd K a", "2026-03-05 12:00:00"},
		{"2026-03-05 24", "yyyy-MM-dd kk", "2026-03-05 00:00:00"},
		{"2026-03-05 07", "yyyy-MM-dd hh", "2026-03-05 07:00:00"},
		{"2026-03-05 13 PM", "yyyy-MM-dd hh a", "NULL"},
		{"2026-03-05 00", "yyyy-MM-dd hh", "NULL"},
		{"2026-03-05 UTC", "yyyy-MM-dd z", "2026-03-05 00:00:00"},
		{"2026-03-05 PST", "yyyy-MM-dd z", "2026-03-05 08:00:00"},
		{"2026-03-05 America/New_York", "yyyy-MM-dd VV", "2026-03-05 05:00:00"},
		{"2026-03-05 GMT+01:00", "yyyy-MM-dd O", "2026-03-04 23:00:00"},
		{"2026-03-05 +01:30", "yyyy-MM-dd XXX", "2026-03-04 22:30:00"},
		{"2026-03-05T07:08:09+0100", "yyyy-MM-dd'T'HH:mm:ssXXX", "NULL"},
		{"2026-03-05 +01", "yyyy-MM-dd x", "2026-03-04 23:00:00"},
		{"2026-03-05 +0100", "yyyy-MM-dd Z", "2026-03-04 23:00:00"},
		{"2026-03-05 -08:00", "yyyy-MM-dd ZZZZZ", "2026-03-05 08:00:00"},
		{"2026-03-05 GMT", "yyyy-MM-dd ZZZZ", "2026-03-05 00:00:00"},
		{"2026-02-30", "yyyy-MM-dd", "NULL"},
		{"2026-13-01", "yyyy-MM-dd", "NULL"},
		{"abc", "yyyy-MM-dd", "NULL"},
		{"", "yyyy-MM-dd", "NULL"},
		{"2026-03-05", "yyyy-MM-dd HH:mm:ss", "NULL"},
		{"2026-03-05 07", "yyyy-MM-dd HH:mm", "NULL"},
		{"20260305", "yyyy", "NULL"},
		{"2026-3-5", "yyyy-MM-dd[ HH:mm:ss]", "NULL"},
		{"2026-03-05", "yyyy-MM-dd[ HH:mm:ss]", "2026-03-05 00:00:00"},
		{"20260305070809123", "yyyyMMddHHmmssSSS", "error: PARSE_DATETIME_BY_NEW_PARSER"},
		{"2026030507080912", "yyyyMMddHHmmssSS", "error: PARSE_DATETIME_BY_NEW_PARSER"},
		{"2026-03-05 07:08:09.55", "yyyy-MM-dd HH:mm:ss.S", "error: PARSE_DATETIME_BY_NEW_PARSER"},
		{"2026-3-5", "yyyy-MM-dd", "error: PARSE_DATETIME_BY_NEW_PARSER"},
		{" 2026-03-05", "yyyy-MM-dd", "error: PARSE_DATETIME_BY_NEW_PARSER"},
		{"2026-03-05 ", "yyyy-MM-dd", "error: PARSE_DATETIME_BY_NEW_PARSER"},
		{"2026-03-05x", "yyyy-MM-dd", "error: PARSE_DATETIME_BY_NEW_PARSER"},
		{"2026 Q1", "yyyy QQQ", "error: illegal pattern letter 'Q'"},
		{"Thu 2026-03-05", "EEE yyyy-MM-dd", "error: DATETIME_PATTERN_RECOGNITION"},
		{"2026-03-05", "yyyy-MM-dd F", "error: DATETIME_PATTERN_RECOGNITION"},
	}
	for _, tc := range tests {
		dp, err := compileDT(tc.pattern)
		var us int64
		ok := false
		if err == nil {
			us, ok, err = dp.parseSpark(tc.s)
		}
		if want, isErr := strings.CutPrefix(tc.want, "error: "); isErr {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("to_timestamp(%q, %q): error %v, want one containing %q", tc.s, tc.pattern, err, want)
			}
			continue
		}
		got := "NULL"
		if err != nil {
			got = "error: " + err.Error()
		} else if ok {
			got = time.UnixMicro(us).UTC().Format("2006-01-02 15:04:05.999999")
		}
		if got != tc.want {
			t.Errorf("to_timestamp(%q, %q) = %s, want %s", tc.s, tc.pattern, got, tc.want)
		}
	}
}
