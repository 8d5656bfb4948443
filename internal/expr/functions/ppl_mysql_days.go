package functions

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// MySQL's day numbers, which PPL keeps: TO_DAYS counts days from year 0
// (2008-10-07 is 733687), FROM_DAYS is its inverse, TO_SECONDS the
// seconds since year 0; MAKEDATE(year, day of year); PERIOD_ADD and
// PERIOD_DIFF over YYMM / YYYYMM periods. Spark has none of them.

// mysqlDayZero is TO_DAYS('1970-01-01').
const mysqlDayZero = 719528

// pDateOrDigits takes a date, a timestamp, text, or a number written
// YYMMDD / YYYYMMDD[hhmmss] (read by digitsTimestamp).
var pDateOrDigits = param{"DATE", func(t arrow.DataType) arrow.DataType {
	if types.IsNumeric(t) {
		return types.Double
	}
	return pTimestamp.coerce(t)
}}

func dateOrDigits(v any) (int64, bool) {
	if f, ok := v.(float64); ok {
		return digitsTimestamp(f)
	}
	return v.(int64), true
}

var (
	bindPPLToDays = rowFn("ppl_to_days", types.BigInt, ps(pDateOrDigits), func(v []any) (any, error) {
		us, ok := dateOrDigits(v[0])
		if !ok {
			return nil, nil
		}
		return floorDiv(us, 86_400_000_000) + mysqlDayZero, nil
	})
	bindPPLToSeconds = rowFn("ppl_to_seconds", types.BigInt, ps(pDateOrDigits), func(v []any) (any, error) {
		us, ok := dateOrDigits(v[0])
		if !ok {
			return nil, nil
		}
		return floorDiv(us, 1_000_000) + mysqlDayZero*86400, nil
	})
	bindPPLFromDays = rowFn("ppl_from_days", types.Date, ps(pInt), func(v []any) (any, error) {
		return v[0].(int64) - mysqlDayZero, nil
	})
	bindPPLMakedate = rowFn("ppl_makedate", types.Date, ps(pDouble, pDouble), func(v []any) (any, error) {
		y, d := int64(math.Round(v[0].(float64))), int64(math.Round(v[1].(float64)))
		if y < 0 || y > 9999 || d <= 0 {
			return nil, nil
		}
		return types.DaysFromCivil(y, 1, 1) + d - 1, nil
	})
	bindPPLPeriodAdd = rowFn("ppl_period_add", types.BigInt, ps(pInt, pInt), func(v []any) (any, error) {
		m := periodMonths(v[0].(int64)) + v[1].(int64)
		return m/12*100 + m%12 + 1, nil
	})
	bindPPLPeriodDiff = rowFn("ppl_period_diff", types.BigInt, ps(pInt, pInt), func(v []any) (any, error) {
		return periodMonths(v[0].(int64)) - periodMonths(v[1].(int64)), nil
	})
)

// periodMonths is MySQL's convert_period_to_month: YYMM (70..99 are
// 19xx) or YYYYMM as months since year 0.
func periodMonths(p int64) int64 {
	if p == 0 {
		return 0
	}
	y := p / 100
	if y < 70 {
		y += 2000
	} else if y < 100 {
		y += 1900
	}
	return y*12 + p%100 - 1
}
