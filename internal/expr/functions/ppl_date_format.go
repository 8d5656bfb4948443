package functions

import (
	"fmt"
	"strings"
	"time"

	"sluice/internal/types"
)

// ppl_date_format(ts, format) is PPL's (MySQL's) DATE_FORMAT: %-specifiers
// (%Y-%m-%d %H:%i:%s, %D for 31st, %U..%X for MySQL's weeks) rather than
// Spark's pattern letters. ppl_time_format allows only the time ones and
// is NULL for a format with any other.
var (
	bindPPLDateFormat = rowFn("ppl_date_format", types.String, ps(pTimestamp, pString), func(v []any) (any, error) {
		s, _ := mysqlFormat(types.FromMicros(v[0].(int64)), v[1].(string), false)
		return s, nil
	})
	bindPPLTimeFormat = rowFn("ppl_time_format", types.String, ps(pTimestamp, pString), func(v []any) (any, error) {
		s, ok := mysqlFormat(types.FromMicros(v[0].(int64)), v[1].(string), true)
		if !ok {
			return nil, nil
		}
		return s, nil
	})
)

// mysqlFormat writes t by MySQL's specifiers; with timeOnly a date
// specifier makes ok false. An unknown %x writes x, as MySQL does.
func mysqlFormat(t time.Time, f string, timeOnly bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		c := f[i]
		if timeOnly && !strings.ContainsRune("fHhIiprSsT%", rune(c)) {
			return "", false
		}
		h12 := t.Hour() % 12
		if h12 == 0 {
			h12 = 12
		}
		switch c {
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'b':
			b.WriteString(t.Month().String()[:3])
		case 'c':
			fmt.Fprintf(&b, "%d", int(t.Month()))
		case 'D':
			fmt.Fprintf(&b, "%d%s", t.Day(), englishSuffix(t.Day()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&b, "%d", t.Day())
		case 'f':
			fmt.Fprintf(&b, "%06d", t.Nanosecond()/1000)
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'h', 'I':
			fmt.Fprintf(&b, "%02d", h12)
		case 'i':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'k':
			fmt.Fprintf(&b, "%d", t.Hour())
		case 'l':
			fmt.Fprintf(&b, "%d", h12)
		case 'M':
			b.WriteString(t.Month().String())
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'p':
			b.WriteString(ampm(t))
		case 'r':
			fmt.Fprintf(&b, "%02d:%02d:%02d %s", h12, t.Minute(), t.Second(), ampm(t))
		case 'S', 's':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'T':
			fmt.Fprintf(&b, "%02d:%02d:%02d", t.Hour(), t.Minute(), t.Second())
		case 'U', 'u', 'V', 'v':
			w, _ := mysqlWeek(t, weekBehaviour[c])
			fmt.Fprintf(&b, "%02d", w)
		case 'X', 'x':
			_, y := mysqlWeek(t, weekBehaviour[c])
			fmt.Fprintf(&b, "%04d", y)
		case 'W':
			b.WriteString(t.Weekday().String())
		case 'w':
			fmt.Fprintf(&b, "%d", int(t.Weekday()))
		case 'Y':
			fmt.Fprintf(&b, "%04d", t.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func ampm(t time.Time) string {
	if t.Hour() < 12 {
		return "AM"
	}
	return "PM"
}

// englishSuffix is the ordinal suffix of a day: 1st, 2nd, 3rd, 11th, 22nd.
func englishSuffix(d int) string {
	if d%100 >= 11 && d%100 <= 13 {
		return "th"
	}
	switch d % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// MySQL's week behaviour bits (sql_time.cc calc_week).
const (
	weekMondayFirst  = 1
	weekYear         = 2
	weekFirstWeekday = 4
)

// weekBehaviour is the calc_week behaviour of each week specifier:
// %U and %X are WEEK() mode 0 and 2 (Sunday first), %u and %x modes 1
// and 3 (Monday first); %V and %v count in the week's own year.
var weekBehaviour = map[byte]int{
	'U': weekFirstWeekday,
	'u': weekMondayFirst,
	'V': weekYear | weekFirstWeekday,
	'v': weekMondayFirst | weekYear,
	'X': weekYear | weekFirstWeekday,
	'x': weekMondayFirst | weekYear,
}

// mysqlWeek is MySQL's calc_week: the week number of t and the year it
// belongs to.
func mysqlWeek(t time.Time, behaviour int) (int, int) {
	mondayFirst := behaviour&weekMondayFirst != 0
	inWeekYear := behaviour&weekYear != 0
	firstWeekday := behaviour&weekFirstWeekday != 0
	dayOf := func(y int, m time.Month, d int) int {
		return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	}
	weekdayOf := func(day int) int { // 0 = the week's first day
		wd := int(floorMod(int64(day)+3, 7)) // 0 = Monday
		if !mondayFirst {
			wd = (wd + 1) % 7
		}
		return wd
	}
	year := t.Year()
	daynr := dayOf(year, t.Month(), t.Day())
	first := dayOf(year, time.January, 1)
	weekday := weekdayOf(first)
	daysIn := func(y int) int { return dayOf(y+1, time.January, 1) - dayOf(y, time.January, 1) }
	late := func(wd int) bool { return firstWeekday && wd != 0 || !firstWeekday && wd >= 4 }
	if t.Month() == time.January && t.Day() <= 7-weekday {
		if !inWeekYear && late(weekday) {
			return 0, year
		}
		inWeekYear = true
		year--
		d := daysIn(year)
		first -= d
		weekday = (weekday + 53*7 - d) % 7
	}
	var days int
	if late(weekday) {
		days = daynr - (first + 7 - weekday)
	} else {
		days = daynr - (first - weekday)
	}
	if inWeekYear && days >= 52*7 {
		weekday = (weekday + daysIn(year)) % 7
		if !late(weekday) {
			return 1, year + 1
		}
	}
	return days/7 + 1, year
}
