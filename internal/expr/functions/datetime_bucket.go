package functions

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// time_bucket(size, ts[, origin]) (Spark 4.2) is the start of the
// size-long bucket holding ts, buckets aligned to origin (default the
// Unix epoch). A day-time size gives fixed buckets (floor division of
// microseconds); a year-month size gives calendar buckets, origin plus a
// whole number of size-month steps (the day capped at the month's end),
// stepping back one when that start passes ts. Sluice's session time
// zone is UTC, so both align in UTC. size and origin are constants; a
// NULL ts is NULL.
func bindTimeBucket(args []Arg) (*Bound, error) {
	casts, err := coerceArgs("time_bucket", args, pAny, pTimestamp, pTimestamp)
	if err != nil {
		return nil, err
	}
	casts[0] = nil
	iv, ok := constInterval(args[0])
	if !ok {
		return nil, fmt.Errorf("function time_bucket expects a constant interval bucket size such as INTERVAL '15' MINUTE")
	}
	var origin int64
	if len(args) == 3 {
		o, ok := constTimestamp(args[2])
		if !ok {
			return nil, fmt.Errorf("function time_bucket expects a constant TIMESTAMP origin")
		}
		origin = o
	}
	var bucket func(ts int64) int64
	switch {
	case iv.Months != 0 && (iv.Days != 0 || iv.Nanoseconds != 0):
		return nil, fmt.Errorf("time_bucket: the bucket size mixes months with days or time: %s", types.FormatInterval(iv))
	case iv.Months < 0 || iv.Days < 0 || iv.Nanoseconds < 0 || iv == (arrow.MonthDayNanoInterval{}):
		return nil, fmt.Errorf("time_bucket: the bucket size must be positive, got %s", types.FormatInterval(iv))
	case iv.Months > 0:
		n := int(iv.Months)
		o := time.UnixMicro(origin).UTC()
		bucket = func(ts int64) int64 {
			t := time.UnixMicro(ts).UTC()
			months := (t.Year()-o.Year())*12 + int(t.Month()) - int(o.Month())
			k := int(floorDiv(int64(months), int64(n)))
			start := addMonthsCapped(o, k*n)
			if start.After(t) {
				start = addMonthsCapped(o, (k-1)*n)
			}
			return start.UnixMicro()
		}
	default:
		size := types.IntervalMicros(iv)
		if size <= 0 {
			return nil, fmt.Errorf("time_bucket: the bucket size must be at least a microsecond, got %s", types.FormatInterval(iv))
		}
		bucket = func(ts int64) int64 { return origin + floorDiv(ts-origin, size)*size }
	}
	return &Bound{Type: types.Timestamp, Casts: casts, Eval: func(_ context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		ts := args[1]
		if ts.DataType().ID() == arrow.NULL {
			return nullArray(types.Timestamp, n), nil
		}
		us := i64s(ts)
		return fixedResult(types.Timestamp, n, args[1:2], func(i int) (arrow.Timestamp, bool) {
			return arrow.Timestamp(bucket(us[i])), true
		}), nil
	}}, nil
}

// addMonthsCapped adds n months to t, capping the day at the last of the
// resulting month (Jan 31 + 1 month is Feb 28/29).
func addMonthsCapped(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}

func constInterval(a Arg) (arrow.MonthDayNanoInterval, bool) {
	if !a.Const {
		return arrow.MonthDayNanoInterval{}, false
	}
	switch v := a.Value.(type) {
	case arrow.MonthDayNanoInterval:
		return v, true
	case string:
		iv, err := types.ParseInterval(v)
		return iv, err == nil
	}
	return arrow.MonthDayNanoInterval{}, false
}

func constTimestamp(a Arg) (int64, bool) {
	if !a.Const {
		return 0, false
	}
	switch v := a.Value.(type) {
	case int64:
		if a.Type.ID() == arrow.DATE32 {
			return v * 86400_000_000, true
		}
		return v, true
	case string:
		return types.ParseTimestamp(v)
	}
	return 0, false
}
