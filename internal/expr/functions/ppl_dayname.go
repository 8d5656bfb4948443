package functions

import (
	"time"

	"sluice/internal/types"
)

// ppl_dayname and ppl_monthname are PPL's (MySQL's) DAYNAME and MONTHNAME:
// the full English name (Wednesday, August), where Spark's functions of
// those names abbreviate it.
var (
	bindPPLDayname = rowFn("ppl_dayname", types.String, ps(pDate), func(v []any) (any, error) {
		return time.Weekday((floorMod(v[0].(int64)+3, 7) + 1) % 7).String(), nil
	})
	bindPPLMonthname = rowFn("ppl_monthname", types.String, ps(pDate), func(v []any) (any, error) {
		_, m, _ := types.CivilDate(v[0].(int64))
		return time.Month(m).String(), nil
	})
)
