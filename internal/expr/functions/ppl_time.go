package functions

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// Sluice has no TIME type, so PPL's TIME values are STRINGs
// HH:mm:ss[.ffffff] (ppl_time). The functions here read such a string,
// a date or timestamp, or their text: a time of day alone stands on
// 1970-01-01, which cancels out wherever PPL takes "today" for it
// (DATEDIFF(TIME, TIME) is 0, TIMESTAMPDIFF(SECOND, t1, t2) the seconds).

// pTemporalText keeps strings as they are (for pplParseTemporal) and
// takes dates and timestamps as TIMESTAMP.
var pTemporalText = param{"TIMESTAMP", func(t arrow.DataType) arrow.DataType {
	if types.IsString(t) || t.ID() == arrow.NULL {
		return types.String
	}
	if types.IsTemporal(t) {
		return types.Timestamp
	}
	return nil
}}

var timeOnlyLayouts = []string{"15:04:05.999999999", "15:04:05", "15:04"}

// pplParseTemporal gives a value's microseconds and whether it is a time
// of day alone.
func pplParseTemporal(v any) (us int64, timeOnly, ok bool) {
	if x, isInt := v.(int64); isInt {
		return x, false, true
	}
	s := strings.TrimSpace(v.(string))
	for _, l := range timeOnlyLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t.AddDate(1970, 0, 0).UnixMicro(), true, true
		}
	}
	if us, ok := pplStrictTimestamp(s); ok {
		return us, false, true
	}
	for _, l := range []string{"2006-01-02 15:04", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t.UnixMicro(), false, true
		}
	}
	if us, ok := types.ParseTimestamp(s); ok {
		return us, false, true
	}
	return 0, false, false
}

const dayMicros = 86_400_000_000

// formatTime writes microseconds of a day (or a signed duration) as
// HH:mm:ss with the fraction when there is one.
func formatTime(us int64) string {
	sign := ""
	if us < 0 {
		sign, us = "-", -us
	}
	s := us / 1_000_000
	out := fmt.Sprintf("%s%02d:%02d:%02d", sign, s/3600, s/60%60, s%60)
	if f := us % 1_000_000; f != 0 {
		out += strings.TrimRight(fmt.Sprintf(".%06d", f), "0")
	}
	return out
}

var (
	// ppl_time(x): the time of day of x as HH:mm:ss[.ffffff].
	bindPPLTime = rowFn("ppl_time", types.String, ps(pTemporalText), func(v []any) (any, error) {
		us, _, ok := pplParseTemporal(v[0])
		if !ok {
			return nil, nil
		}
		return formatTime(floorMod(us, dayMicros)), nil
	})
	// ppl_time_to_sec(t): the seconds of t's time of day.
	bindPPLTimeToSec = rowFn("ppl_time_to_sec", types.BigInt, ps(pTemporalText), func(v []any) (any, error) {
		us, _, ok := pplParseTemporal(v[0])
		if !ok {
			return nil, nil
		}
		return floorMod(us, dayMicros) / 1_000_000, nil
	})
	// ppl_sec_to_time(n): n seconds as a time (fraction kept).
	bindPPLSecToTime = rowFn("ppl_sec_to_time", types.String, ps(pDouble), func(v []any) (any, error) {
		return formatTime(int64(math.Round(v[0].(float64) * 1e6))), nil
	})
	// ppl_maketime(h, m, s): hours and minutes rounded, seconds kept.
	bindPPLMaketime = rowFn("ppl_maketime", types.String, ps(pDouble, pDouble, pDouble), func(v []any) (any, error) {
		h, m, s := math.Round(v[0].(float64)), math.Round(v[1].(float64)), v[2].(float64)
		if h < 0 || m < 0 || m > 59 || s < 0 || s >= 60 {
			return nil, nil
		}
		return formatTime(int64(h)*3_600_000_000 + int64(m)*60_000_000 + int64(math.Round(s*1e6))), nil
	})
	// ppl_timediff(a, b): a - b as a (signed) time.
	bindPPLTimediff = rowFn("ppl_timediff", types.String, ps(pTemporalText, pTemporalText), func(v []any) (any, error) {
		a, _, ok1 := pplParseTemporal(v[0])
		b, _, ok2 := pplParseTemporal(v[1])
		if !ok1 || !ok2 {
			return nil, nil
		}
		return formatTime(a - b), nil
	})
	// ppl_datediff(a, b): days from b's date to a's.
	bindPPLDatediff = rowFn("ppl_datediff", types.BigInt, ps(pTemporalText, pTemporalText), func(v []any) (any, error) {
		a, _, ok1 := pplParseTemporal(v[0])
		b, _, ok2 := pplParseTemporal(v[1])
		if !ok1 || !ok2 {
			return nil, nil
		}
		return floorDiv(a, dayMicros) - floorDiv(b, dayMicros), nil
	})
)

// ppl_addtime(a, b) and ppl_subtime: a moved by b's time of day (a DATE
// b adds nothing). A DATE or TIMESTAMP a gives a TIMESTAMP; a time of
// day gives a time (wrapping at midnight), other text a timestamp's text.
func bindPPLAddtime(sign int64) Binder {
	fn := "ppl_addtime"
	if sign < 0 {
		fn = "ppl_subtime"
	}
	return func(args []Arg) (*Bound, error) {
		shift := func(v []any) (int64, bool, bool) {
			a, timeOnly, ok1 := pplParseTemporal(v[0])
			b, _, ok2 := pplParseTemporal(v[1])
			if !ok1 || !ok2 {
				return 0, false, false
			}
			return a + sign*floorMod(b, dayMicros), timeOnly, true
		}
		if types.IsTemporal(args[0].Type) {
			return rowFn(fn, types.Timestamp, ps(pTemporalText, pTemporalText), func(v []any) (any, error) {
				us, _, ok := shift(v)
				if !ok {
					return nil, nil
				}
				return us, nil
			})(args)
		}
		return rowFn(fn, types.String, ps(pTemporalText, pTemporalText), func(v []any) (any, error) {
			us, timeOnly, ok := shift(v)
			if !ok {
				return nil, nil
			}
			if timeOnly {
				return formatTime(floorMod(us, dayMicros)), nil
			}
			return types.FormatTimestamp(us), nil
		})(args)
	}
}

// ppl_time_part('unit', x): HOUR, MINUTE, SECOND or MICROSECOND of x.
// Over a DATE or TIMESTAMP it is Spark's hour, minute, second; over text
// (a time of day such as PPL's TIME values) it reads the text.
func bindPPLTimePart(args []Arg) (*Bound, error) {
	u, ok := args[0].Value.(string)
	if !args[0].Const || !ok {
		return nil, fmt.Errorf("ppl_time_part: the unit must be a constant string")
	}
	u = strings.ToLower(u)
	div := map[string]int64{"hour": 3_600_000_000, "minute": 60_000_000, "second": 1_000_000, "microsecond": 1}[u]
	mod := map[string]int64{"hour": 24, "minute": 60, "second": 60, "microsecond": 1_000_000}[u]
	if div == 0 {
		return nil, fmt.Errorf("ppl_time_part: unknown unit %s", u)
	}
	if types.IsTemporal(args[1].Type) && u != "microsecond" {
		b, err := bindField(u)(args[1:])
		if err != nil {
			return nil, err
		}
		return dropFirstArg(b), nil
	}
	return rowFn("ppl_time_part", types.Int, ps(pString, pTemporalText), func(v []any) (any, error) {
		us, _, ok := pplParseTemporal(v[1])
		if !ok {
			return nil, nil
		}
		return floorMod(us, dayMicros) / div % mod, nil
	})(args)
}

// ppl_timestamp2(ts, t): ts moved by the time of day t (TIMESTAMP(x, y)).
var bindPPLTimestamp2 = rowFn("ppl_timestamp2", types.Timestamp, ps(pTemporalText, pTemporalText), func(v []any) (any, error) {
	a, _, ok1 := pplParseTemporal(v[0])
	b, _, ok2 := pplParseTemporal(v[1])
	if !ok1 || !ok2 {
		return nil, nil
	}
	return a + floorMod(b, dayMicros), nil
})
