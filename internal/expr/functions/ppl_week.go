package functions

import (
	"fmt"

	"sluice/internal/types"
)

// ppl_week(d[, mode]) and ppl_yearweek(d[, mode]) are MySQL's WEEK and
// YEARWEEK with modes 0..7 (default 0: weeks start on Sunday, week 0
// before the first one); Spark's weekofyear is the ISO week only.
var (
	bindPPLWeek = rowFn("ppl_week", types.Int, ps(pTimestamp, pInt), func(v []any) (any, error) {
		m, err := weekMode(v)
		if err != nil {
			return nil, err
		}
		w, _ := mysqlWeek(types.FromMicros(v[0].(int64)), m)
		return int64(w), nil
	})
	bindPPLYearweek = rowFn("ppl_yearweek", types.Int, ps(pTimestamp, pInt), func(v []any) (any, error) {
		m, err := weekMode(v)
		if err != nil {
			return nil, err
		}
		w, y := mysqlWeek(types.FromMicros(v[0].(int64)), m|weekYear)
		return int64(y*100 + w), nil
	})
)

// weekMode is MySQL's week_mode: the calc_week behaviour of a WEEK mode.
func weekMode(v []any) (int, error) {
	mode := int64(0)
	if len(v) > 1 {
		mode = v[1].(int64)
	}
	if mode < 0 || mode > 7 {
		return 0, fmt.Errorf("week mode %d is not between 0 and 7", mode)
	}
	b := int(mode)
	if b&weekMondayFirst == 0 {
		b ^= weekFirstWeekday
	}
	return b, nil
}
