package functions

import (
	"fmt"
	"strings"

	"sluice/internal/types"
)

// ppl_extract('unit', ts) is PPL's (MySQL's) EXTRACT(unit FROM ts), with
// the compound units Spark's extract lacks: YEAR_MONTH is 202302,
// DAY_HOUR 0710, HOUR_SECOND 101112 (as numbers: the parts' digits run
// together, two each, six for microseconds). WEEK is WEEK(ts, 0).
func bindPPLExtract(args []Arg) (*Bound, error) {
	u, ok := args[0].Value.(string)
	if !args[0].Const || !ok {
		return nil, fmt.Errorf("ppl_extract: the unit must be a constant string")
	}
	unit := strings.ToUpper(u)
	parts, ok := extractUnits[unit]
	if !ok {
		return nil, fmt.Errorf("ppl_extract: unknown unit %s", u)
	}
	return rowFn("ppl_extract", types.BigInt, ps(pString, pTimestamp), func(v []any) (any, error) {
		t := types.FromMicros(v[1].(int64))
		var n int64
		for _, p := range parts {
			var x, width int64 = 0, 100
			switch p {
			case "YEAR":
				x, width = int64(t.Year()), 10000
			case "QUARTER":
				x = int64(t.Month()+2) / 3
			case "MONTH":
				x = int64(t.Month())
			case "WEEK":
				w, _ := mysqlWeek(t, weekFirstWeekday)
				x = int64(w)
			case "DAY":
				x = int64(t.Day())
			case "HOUR":
				x = int64(t.Hour())
			case "MINUTE":
				x = int64(t.Minute())
			case "SECOND":
				x = int64(t.Second())
			case "MICROSECOND":
				x, width = int64(t.Nanosecond()/1000), 1_000_000
			}
			n = n*width + x
		}
		return n, nil
	})(args)
}

// extractUnits are the fields each unit runs together, largest first.
var extractUnits = map[string][]string{
	"MICROSECOND": {"MICROSECOND"}, "SECOND": {"SECOND"}, "MINUTE": {"MINUTE"}, "HOUR": {"HOUR"},
	"DAY": {"DAY"}, "WEEK": {"WEEK"}, "MONTH": {"MONTH"}, "QUARTER": {"QUARTER"}, "YEAR": {"YEAR"},
	"SECOND_MICROSECOND": {"SECOND", "MICROSECOND"},
	"MINUTE_MICROSECOND": {"MINUTE", "SECOND", "MICROSECOND"},
	"MINUTE_SECOND":      {"MINUTE", "SECOND"},
	"HOUR_MICROSECOND":   {"HOUR", "MINUTE", "SECOND", "MICROSECOND"},
	"HOUR_SECOND":        {"HOUR", "MINUTE", "SECOND"},
	"HOUR_MINUTE":        {"HOUR", "MINUTE"},
	"DAY_MICROSECOND":    {"DAY", "HOUR", "MINUTE", "SECOND", "MICROSECOND"},
	"DAY_SECOND":         {"DAY", "HOUR", "MINUTE", "SECOND"},
	"DAY_MINUTE":         {"DAY", "HOUR", "MINUTE"},
	"DAY_HOUR":           {"DAY", "HOUR"},
	"YEAR_MONTH":         {"YEAR", "MONTH"},
}
