package functions

import (
	"fmt"
	"math"
	"strings"
	"time"

	"sluice/internal/types"
)

// Date and time functions of Spark beyond datetime_*.go, row by row
// (rowFn: DATE as int64 days, TIMESTAMP as int64 microseconds, UTC).

func scaleToMicros(fn string, per int64) Binder {
	return rowFn(fn, types.Timestamp, ps(pInt), func(v []any) (any, error) {
		x := v[0].(int64)
		if x > math.MaxInt64/per || x < math.MinInt64/per {
			return nil, fmt.Errorf("overflow: %d is out of the TIMESTAMP range", x)
		}
		return x * per, nil
	})
}

var (
	bindTimestampSeconds = func(args []Arg) (*Bound, error) {
		if t := types.Normalize(args[0].Type); types.IsNumeric(t) && !types.IsInteger(t) {
			// timestamp_seconds(1230219000.123) keeps the fraction.
			return rowFn("timestamp_seconds", types.Timestamp, ps(pDouble), func(v []any) (any, error) {
				return int64(math.Round(v[0].(float64) * 1e6)), nil
			})(args)
		}
		return scaleToMicros("timestamp_seconds", 1_000_000)(args)
	}
	bindTimestampMillis = scaleToMicros("timestamp_millis", 1000)
	bindTimestampMicros = scaleToMicros("timestamp_micros", 1)
)

func fromMicros(fn string, div int64) Binder {
	return rowFn(fn, types.BigInt, ps(pTimestamp), func(v []any) (any, error) { return floorDiv(v[0].(int64), div), nil })
}

var (
	bindUnixSeconds = fromMicros("unix_seconds", 1_000_000)
	bindUnixMillis  = fromMicros("unix_millis", 1000)
	bindUnixMicros  = fromMicros("unix_micros", 1)
	bindUnixDate    = rowFn("unix_date", types.Int, ps(pDate), func(v []any) (any, error) { return v[0], nil })
	bindDateFromUD  = rowFn("date_from_unix_date", types.Date, ps(pInt), func(v []any) (any, error) { return v[0], nil })
)

func validDate(y, m, d int64) (int64, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < -290000 || y > 290000 {
		return 0, false
	}
	days := types.DaysFromCivil(y, m, 1) + d - 1
	if yy, mm, _ := types.CivilDate(days); yy != y || mm != m {
		return 0, false
	}
	return days, true
}

// make_date(y, m, d): an error for an impossible date (ANSI); the try_
// forms are NULL instead.
func bindMakeDate(try bool) Binder {
	return rowFn("make_date", types.Date, ps(pInt), func(v []any) (any, error) {
		d, ok := validDate(v[0].(int64), v[1].(int64), v[2].(int64))
		if !ok {
			if try {
				return nil, nil
			}
			return nil, fmt.Errorf("invalid date %d-%d-%d", v[0], v[1], v[2])
		}
		return d, nil
	})
}

// make_timestamp(y, mo, d, h, mi, s[, tz]): s is DOUBLE seconds with
// microseconds; s = 60 rolls to the next minute (Spark).
func bindMakeTimestamp(try bool) Binder {
	return rowFn("make_timestamp", types.Timestamp, ps(pInt, pInt, pInt, pInt, pInt, pDouble, pString), func(v []any) (any, error) {
		fail := func() (any, error) {
			if try {
				return nil, nil
			}
			return nil, fmt.Errorf("invalid timestamp %v-%v-%v %v:%v:%v", v[0], v[1], v[2], v[3], v[4], v[5])
		}
		d, ok := validDate(v[0].(int64), v[1].(int64), v[2].(int64))
		h, mi, s := v[3].(int64), v[4].(int64), v[5].(float64)
		if !ok || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60 || (s > 59.999999 && s != 60) {
			return fail()
		}
		us := d*microsPerDay + (h*3600+mi*60)*1_000_000 + int64(math.Round(s*1e6))
		if len(v) == 7 {
			loc, err := time.LoadLocation(v[6].(string))
			if err != nil {
				return nil, fmt.Errorf("unknown time zone %q", v[6])
			}
			t := types.FromMicros(us)
			local := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
			us = local.UnixMicro()
		}
		return us, nil
	})
}

func daysInMonth(y, m int64) int64 {
	if m == 12 {
		return types.DaysFromCivil(y+1, 1, 1) - types.DaysFromCivil(y, 12, 1)
	}
	return types.DaysFromCivil(y, m+1, 1) - types.DaysFromCivil(y, m, 1)
}

var bindLastDay = rowFn("last_day", types.Date, ps(pDate), func(v []any) (any, error) {
	y, m, _ := types.CivilDate(v[0].(int64))
	return types.DaysFromCivil(y, m, 1) + daysInMonth(y, m) - 1, nil
})

var weekdays = []string{"MO", "TU", "WE", "TH", "FR", "SA", "SU"}

// weekdayIndex reads 'MO', 'MON' or 'MONDAY' (any case): 0 is Monday.
func weekdayIndex(s string) (int64, bool) {
	u := strings.ToUpper(strings.TrimSpace(s))
	for i, w := range weekdays {
		full := strings.ToUpper(time.Weekday((i + 1) % 7).String())
		if u == w || u == full[:3] || u == full {
			return int64(i), true
		}
	}
	return 0, false
}

// next_day(d, dow): the first dow after d.
var bindNextDay = rowFn("next_day", types.Date, ps(pDate, pString), func(v []any) (any, error) {
	want, ok := weekdayIndex(v[1].(string))
	if !ok {
		return nil, fmt.Errorf("illegal input for day of week: %s", v[1])
	}
	d := v[0].(int64)
	cur := floorMod(d+3, 7) // 1970-01-01 was a Thursday (3)
	step := floorMod(want-cur, 7)
	if step == 0 {
		step = 7
	}
	return d + step, nil
})

// weekday: 0 = Monday .. 6 = Sunday.
var bindWeekday = rowFn("weekday", types.Int, ps(pDate), func(v []any) (any, error) { return floorMod(v[0].(int64)+3, 7), nil })

var bindDayname = rowFn("dayname", types.String, ps(pDate), func(v []any) (any, error) {
	return time.Weekday((floorMod(v[0].(int64)+3, 7) + 1) % 7).String()[:3], nil
})

var bindMonthname = rowFn("monthname", types.String, ps(pDate), func(v []any) (any, error) {
	_, m, _ := types.CivilDate(v[0].(int64))
	return time.Month(m).String()[:3], nil
})

// add_months(d, n): the same day n months on, clamped to the month's end.
var bindAddMonths = rowFn("add_months", types.Date, ps(pDate, pInt), func(v []any) (any, error) {
	y, m, d := types.CivilDate(v[0].(int64))
	total := y*12 + (m - 1) + v[1].(int64)
	ny, nm := floorDiv(total, 12), floorMod(total, 12)+1
	return types.DaysFromCivil(ny, nm, 1) + min(d, daysInMonth(ny, nm)) - 1, nil
})

// months_between(a, b[, round_off]) as Spark: whole months when the days
// match or both are month ends, else a 31-day-month fraction, rounded to
// 8 digits unless round_off is false.
var bindMonthsBetween = rowFn("months_between", types.Double, ps(pTimestamp, pTimestamp, pTo(types.Boolean)), func(v []any) (any, error) {
	a, b := v[0].(int64), v[1].(int64)
	da, db := floorDiv(a, microsPerDay), floorDiv(b, microsPerDay)
	ya, ma, dda := types.CivilDate(da)
	yb, mb, ddb := types.CivilDate(db)
	months := float64((ya-yb)*12 + (ma - mb))
	lastA := dda == daysInMonth(ya, ma)
	lastB := ddb == daysInMonth(yb, mb)
	if dda == ddb || (lastA && lastB) {
		return months, nil
	}
	secA := float64(dda*86400) + float64(floorMod(a, microsPerDay))/1e6
	secB := float64(ddb*86400) + float64(floorMod(b, microsPerDay))/1e6
	r := months + (secA-secB)/(31*86400)
	if len(v) < 3 || v[2] == true {
		r = math.Round(r*1e8) / 1e8
	}
	return r, nil
})

// trunc(d, fmt): the DATE truncated to year, quarter, month or week;
// NULL for another unit (Spark).
var bindTrunc = rowFn("trunc", types.Date, ps(pDate, pString), func(v []any) (any, error) {
	d := v[0].(int64)
	y, m, _ := types.CivilDate(d)
	switch strings.ToLower(v[1].(string)) {
	case "year", "yyyy", "yy":
		return types.DaysFromCivil(y, 1, 1), nil
	case "quarter":
		return types.DaysFromCivil(y, (m-1)/3*3+1, 1), nil
	case "month", "mon", "mm":
		return types.DaysFromCivil(y, m, 1), nil
	case "week":
		return d - floorMod(d+3, 7), nil
	}
	return nil, nil
})

func zoneOf(name string) (*time.Location, error) {
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	return loc, nil
}

// wallIn reads the UTC wall clock of us as a wall clock in loc.
func wallIn(us int64, loc *time.Location) int64 {
	t := types.FromMicros(us)
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc).UnixMicro()
}

// shiftWall gives the wall clock in loc of the instant us, as UTC micros.
func shiftWall(us int64, loc *time.Location) int64 {
	t := types.FromMicros(us).In(loc)
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC).UnixMicro()
}

// from_utc_timestamp(ts, tz): the UTC wall clock ts shown in tz.
var bindFromUTC = rowFn("from_utc_timestamp", types.Timestamp, ps(pTimestamp, pString), func(v []any) (any, error) {
	loc, err := zoneOf(v[1].(string))
	if err != nil {
		return nil, err
	}
	return shiftWall(v[0].(int64), loc), nil
})

// to_utc_timestamp(ts, tz): the wall clock ts in tz, as UTC.
var bindToUTC = rowFn("to_utc_timestamp", types.Timestamp, ps(pTimestamp, pString), func(v []any) (any, error) {
	loc, err := zoneOf(v[1].(string))
	if err != nil {
		return nil, err
	}
	return wallIn(v[0].(int64), loc), nil
})

// convert_timezone([from,] to, ts): the wall clock ts in from (UTC when
// omitted) as the wall clock in to.
func bindConvertTimezone(args []Arg) (*Bound, error) {
	params := ps(pString, pString, pTimestamp)
	if len(args) == 2 {
		params = ps(pString, pTimestamp)
	}
	return rowFn("convert_timezone", types.Timestamp, params, convertTimezone)(args)
}

func convertTimezone(v []any) (any, error) {
	from, to, ts := "UTC", v[0].(string), v[1]
	if len(v) == 3 {
		from, to, ts = v[0].(string), v[1].(string), v[2]
	}
	fl, err := zoneOf(from)
	if err != nil {
		return nil, err
	}
	tl, err := zoneOf(to)
	if err != nil {
		return nil, err
	}
	us, ok := ts.(int64)
	if !ok {
		return nil, fmt.Errorf("expects a TIMESTAMP")
	}
	return shiftWall(wallIn(us, fl), tl), nil
}

var bindCurrentTimezone = rowFn("current_timezone", types.String, nil, func([]any) (any, error) { return "UTC", nil })
