package functions

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_relative_time('modifier') is the time a PPL search time modifier
// (earliest=, latest=) names: now, an absolute time, or offsets and
// snaps from the query's time (-7d, +1d@d, @w1). It reads the query's
// clock at run time, so a view keeps meaning "7 days before now".
func bindPPLRelativeTime(args []Arg) (*Bound, error) {
	s, ok := args[0].Value.(string)
	if !args[0].Const || !ok {
		return nil, fmt.Errorf("ppl_relative_time: the time modifier must be a constant string")
	}
	if _, err := PPLRelativeTime(s, time.Unix(0, 0).UTC()); err != nil {
		return nil, err
	}
	return &Bound{Type: types.Timestamp, Eval: func(ctx context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
		t, err := PPLRelativeTime(s, Now(ctx).UTC())
		if err != nil {
			return nil, err
		}
		return repeatFixed(types.Timestamp, arrow.Timestamp(t.UnixMicro()), n), nil
	}}, nil
}

// pplAbsoluteLayouts are the absolute times a modifier may be, read as
// UTC: PPL's MM/dd/yyyy:HH:mm:ss, yyyy-MM-dd HH:mm:ss and ISO 8601.
var pplAbsoluteLayouts = []string{"01/02/2006:15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04:05.999999999", time.RFC3339Nano, "2006-01-02T15:04:05.999999999"}

// PPLRelativeTime resolves a time modifier against now, as OpenSearch's
// DateTimeUtils.getRelativeZonedDateTime does: offsets and snaps apply
// left to right; a week snaps to Sunday, @w1..@w6 to that weekday.
func PPLRelativeTime(s string, now time.Time) (time.Time, error) {
	for _, l := range pplAbsoluteLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t.UTC(), nil
		}
	}
	if strings.EqualFold(s, "now") || strings.EqualFold(s, "now()") {
		return now, nil
	}
	if s == "" {
		return now, fmt.Errorf("empty time modifier")
	}
	t := now
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '@':
			j := i + 1
			for j < len(s) && isAlnum(s[j]) {
				j++
			}
			var err error
			if t, err = pplSnap(t, s[i+1:j]); err != nil {
				return now, fmt.Errorf("time modifier %q: %w", s, err)
			}
			i = j
		case '+', '-':
			j := i + 1
			n := 0
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				n = n*10 + int(s[j]-'0')
				if n > 1e8 {
					return now, fmt.Errorf("time modifier %q: offset too large", s)
				}
				j++
			}
			if j == i+1 {
				n = 1
			}
			k := j
			for k < len(s) && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
				k++
			}
			if c == '-' {
				n = -n
			}
			var err error
			if t, err = pplOffset(t, n, s[j:k]); err != nil {
				return now, fmt.Errorf("time modifier %q: %w", s, err)
			}
			i = k
		default:
			return now, fmt.Errorf("time modifier %q: unexpected character %q at position %d (want now, a time, or offsets like -7d and snaps like @d)", s, c, i)
		}
	}
	return t, nil
}

// pplUnit normalizes a modifier's unit: m is a minute, mon a month.
func pplUnit(raw string) (string, error) {
	switch strings.ToLower(raw) {
	case "m", "min", "mins", "minute", "minutes":
		return "m", nil
	case "s", "sec", "secs", "second", "seconds":
		return "s", nil
	case "h", "hr", "hrs", "hour", "hours":
		return "h", nil
	case "d", "day", "days":
		return "d", nil
	case "w", "wk", "wks", "week", "weeks":
		return "w", nil
	case "mon", "month", "months":
		return "M", nil
	case "y", "yr", "yrs", "year", "years":
		return "y", nil
	case "q", "qtr", "qtrs", "quarter", "quarters":
		return "q", nil
	}
	if l := strings.ToLower(raw); len(l) == 2 && l[0] == 'w' && l[1] >= '0' && l[1] <= '7' {
		return l, nil
	}
	return "", fmt.Errorf("unsupported unit %q (want s, m, h, d, w, mon, q or y)", raw)
}

func pplOffset(t time.Time, n int, raw string) (time.Time, error) {
	u, err := pplUnit(raw)
	if err != nil {
		return t, err
	}
	switch u {
	case "s":
		return t.Add(time.Duration(n) * time.Second), nil
	case "m":
		return t.Add(time.Duration(n) * time.Minute), nil
	case "h":
		return t.Add(time.Duration(n) * time.Hour), nil
	case "d":
		return t.AddDate(0, 0, n), nil
	case "w":
		return t.AddDate(0, 0, 7*n), nil
	case "M":
		return addMonthsClamped(t, n), nil
	case "q":
		return addMonthsClamped(t, 3*n), nil
	case "y":
		return addMonthsClamped(t, 12*n), nil
	}
	return t, fmt.Errorf("unsupported offset unit %q", raw)
}

// addMonthsClamped moves by months keeping the day within the month, as
// java.time's plusMonths does (Jan 31 + 1 month is Feb 28 or 29).
func addMonthsClamped(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
	last := first.AddDate(0, 1, -1).Day()
	if d > last {
		d = last
	}
	return first.AddDate(0, 0, d-1)
}

func pplSnap(t time.Time, raw string) (time.Time, error) {
	u, err := pplUnit(raw)
	if err != nil {
		return t, err
	}
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
	switch u {
	case "s":
		return t.Truncate(time.Second), nil
	case "m":
		return t.Truncate(time.Minute), nil
	case "h":
		return t.Truncate(time.Hour), nil
	case "d":
		return day, nil
	case "w", "w0", "w7":
		return day.AddDate(0, 0, -int(t.Weekday())), nil
	case "M":
		return day.AddDate(0, 0, 1-t.Day()), nil
	case "y":
		return day.AddDate(0, 0, 1-t.YearDay()), nil
	case "q":
		return time.Date(t.Year(), (t.Month()-1)/3*3+1, 1, 0, 0, 0, 0, t.Location()), nil
	}
	// @w1..@w6: back to the latest Monday..Saturday.
	target := int(u[1] - '0')
	return day.AddDate(0, 0, -((int(t.Weekday()) - target + 7) % 7)), nil
}
