package types

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Micros converts a time to TIMESTAMP's representation.
func Micros(t time.Time) int64 { return t.UnixMicro() }

// FromMicros converts a TIMESTAMP value back to a UTC time.
func FromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// isoLayouts are tried in order by ParseTimestamp. They cover what log
// producers actually write: RFC 3339 with or without fraction and zone,
// a space instead of T, and bare dates.
var isoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	"2006-01-02",
}

// ParseTimestamp parses an ISO-8601 timestamp into microseconds since the
// epoch, UTC. A value without a zone is taken as UTC.
func ParseTimestamp(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	for _, l := range isoLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMicro(), true
		}
	}
	return 0, false
}

// ParseDate parses YYYY-MM-DD into days since the epoch.
func ParseDate(s string) (int32, bool) {
	t, err := time.Parse("2006-01-02", strings.TrimSpace(s))
	if err != nil {
		return 0, false
	}
	return int32(t.Unix() / 86400), true
}

// FormatTimestamp prints a TIMESTAMP the way results show it:
// 2026-11-30 04:36:56 with a fraction only when there is one.
func FormatTimestamp(us int64) string {
	t := FromMicros(us)
	if us%1_000_000 == 0 {
		return t.Format("2006-01-02 15:04:05")
	}
	return strings.TrimRight(t.Format("2006-01-02 15:04:05.000000"), "0")
}

// FormatDate prints a DATE as YYYY-MM-DD.
func FormatDate(days int32) string {
	return time.Unix(int64(days)*86400, 0).UTC().Format("2006-01-02")
}

// ErrBadInterval is returned for interval text that cannot be read.
var ErrBadInterval = errors.New("invalid interval")

// ParseInterval reads interval text in the forms SQL users write:
// "5 minutes", "1 hour 30 minutes", "2 days", "1 month", "500 ms", "-3 seconds",
// "1.5 seconds". Units may be singular or plural, abbreviated (s, sec, m,
// min, h, hr, d, ms, us) or upper case.
func ParseInterval(s string) (arrow.MonthDayNanoInterval, error) {
	var out arrow.MonthDayNanoInterval
	fields := strings.Fields(strings.ToLower(strings.TrimSpace(s)))
	if len(fields) == 0 {
		return out, fmt.Errorf("%w: %q", ErrBadInterval, s)
	}
	if fields[0] == "interval" {
		fields = fields[1:]
	}
	// Accept "5minutes" and "10s" as well as "5 minutes".
	var toks []string
	for _, f := range fields {
		i := 0
		for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '.' || f[i] == '-' || f[i] == '+') {
			i++
		}
		if i > 0 && i < len(f) {
			toks = append(toks, f[:i], f[i:])
		} else {
			toks = append(toks, strings.Trim(f, "'"))
		}
	}
	if len(toks)%2 != 0 {
		return out, fmt.Errorf("%w: %q (want a number and a unit, like '5 minutes')", ErrBadInterval, s)
	}
	for i := 0; i < len(toks); i += 2 {
		n, err := strconv.ParseFloat(toks[i], 64)
		if err != nil {
			return out, fmt.Errorf("%w: %q: %q is not a number", ErrBadInterval, s, toks[i])
		}
		if err := AddIntervalUnit(&out, n, toks[i+1]); err != nil {
			return out, fmt.Errorf("%w: %q: %v", ErrBadInterval, s, err)
		}
	}
	return out, nil
}

// AddIntervalUnit adds n of the named unit to iv.
func AddIntervalUnit(iv *arrow.MonthDayNanoInterval, n float64, unit string) error {
	const sec = float64(time.Second)
	unit = strings.ToLower(unit)
	switch unit {
	case "ms", "msec", "msecs":
		unit = "millisecond"
	case "us", "usec", "usecs":
		unit = "microsecond"
	case "ns", "nsec", "nsecs":
		unit = "nanosecond"
	}
	switch strings.TrimSuffix(unit, "s") {
	case "year", "yr", "y":
		iv.Months += int32(n * 12)
	case "month", "mon":
		iv.Months += int32(n)
	case "week", "w":
		iv.Days += int32(n * 7)
	case "day", "d":
		iv.Days += int32(n)
	case "hour", "hr", "h":
		iv.Nanoseconds += int64(n * 3600 * sec)
	case "minute", "min", "m":
		iv.Nanoseconds += int64(n * 60 * sec)
	case "second", "sec", "":
		iv.Nanoseconds += int64(n * sec)
	case "millisecond", "milli":
		iv.Nanoseconds += int64(n * float64(time.Millisecond))
	case "microsecond", "micro":
		iv.Nanoseconds += int64(n * float64(time.Microsecond))
	case "nanosecond", "nano":
		iv.Nanoseconds += int64(n)
	default:
		return fmt.Errorf("unknown unit %q", unit)
	}
	return nil
}

// IntervalMicros converts a fixed-length interval to microseconds. Months
// count as 30 days and days as 24 hours: only windows and watermarks use
// this, where a calendar-exact month is not meaningful.
func IntervalMicros(iv arrow.MonthDayNanoInterval) int64 {
	return int64(iv.Months)*30*86400_000_000 + int64(iv.Days)*86400_000_000 + iv.Nanoseconds/1000
}

// AddInterval adds iv to a TIMESTAMP, calendar-exact for months and days.
func AddInterval(us int64, iv arrow.MonthDayNanoInterval) int64 {
	if iv.Months != 0 || iv.Days != 0 {
		us = FromMicros(us).AddDate(0, int(iv.Months), int(iv.Days)).UnixMicro()
	}
	return us + iv.Nanoseconds/1000
}

// FormatInterval prints an interval as "1 month 2 days 00:05:00".
func FormatInterval(iv arrow.MonthDayNanoInterval) string {
	var parts []string
	if iv.Months != 0 {
		parts = append(parts, plural(int64(iv.Months), "month"))
	}
	if iv.Days != 0 {
		parts = append(parts, plural(int64(iv.Days), "day"))
	}
	if iv.Nanoseconds != 0 || len(parts) == 0 {
		d := time.Duration(iv.Nanoseconds)
		parts = append(parts, d.String())
	}
	return strings.Join(parts, " ")
}

func plural(n int64, unit string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, unit)
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
