package functions

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// pplMaxEpoch is the end of PPL's UNIX_TIMESTAMP range, 3001-01-18
// 23:59:59.999999; outside 0..pplMaxEpoch the result is NULL.
const pplMaxEpoch = 32536771199.999999

// ppl_unix_timestamp([x]) is PPL's UNIX_TIMESTAMP: DOUBLE seconds of a
// DATE or TIMESTAMP, of timestamp text, or of a number written
// YYMMDD[hhmmss] or YYYYMMDD[hhmmss] with an optional fraction (Spark's
// unix_timestamp reads a number as no date at all and returns BIGINT).
func bindPPLUnixTimestamp(args []Arg) (*Bound, error) {
	if len(args) == 0 {
		return &Bound{Type: types.Double, Eval: func(ctx context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
			return repeatFixed(types.Double, float64(Now(ctx).UnixMicro())/1e6, n), nil
		}}, nil
	}
	inRange := func(s float64) any {
		if s < 0 || s > pplMaxEpoch {
			return nil
		}
		return s
	}
	t := types.Normalize(args[0].Type)
	switch {
	case types.IsNumeric(t):
		return rowFn("ppl_unix_timestamp", types.Double, ps(pDouble), func(v []any) (any, error) {
			us, ok := digitsTimestamp(v[0].(float64))
			if !ok {
				return nil, nil
			}
			return inRange(float64(us) / 1e6), nil
		})(args)
	case types.IsTemporal(t):
		return rowFn("ppl_unix_timestamp", types.Double, ps(pTimestamp), func(v []any) (any, error) {
			return inRange(float64(v[0].(int64)) / 1e6), nil
		})(args)
	}
	return rowFn("ppl_unix_timestamp", types.Double, ps(pString), func(v []any) (any, error) {
		us, ok := types.ParseTimestamp(v[0].(string))
		if !ok {
			return nil, nil
		}
		return inRange(float64(us) / 1e6), nil
	})(args)
}

// digitsTimestamp reads 20771122143845.5 as 2077-11-22 14:38:45.5 UTC in
// microseconds; two-digit years 70..99 are 19xx, 00..69 20xx (MySQL).
func digitsTimestamp(x float64) (int64, bool) {
	if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) || x >= 1e15 {
		return 0, false
	}
	whole := math.Floor(x)
	frac := x - whole
	s := strconv.FormatInt(int64(whole), 10)
	var y, rest string
	switch len(s) {
	case 6, 12:
		y, rest = s[:2], s[2:]
	case 8, 14:
		y, rest = s[:4], s[4:]
	default:
		return 0, false
	}
	if len(rest) == 4 {
		rest += "000000"
	}
	num := func(t string) int { n, _ := strconv.Atoi(t); return n }
	year := num(y)
	if len(y) == 2 {
		if year < 70 {
			year += 2000
		} else {
			year += 1900
		}
	}
	mo, d, h, mi, sec := num(rest[0:2]), num(rest[2:4]), num(rest[4:6]), num(rest[6:8]), num(rest[8:10])
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	tm := time.Date(year, time.Month(mo), d, h, mi, sec, 0, time.UTC)
	if tm.Day() != d {
		return 0, false // 02-30 rolled over
	}
	return tm.UnixMicro() + int64(math.Round(frac*1e6)), true
}
