package functions

import (
	"fmt"
	"strings"
	"time"

	"sluice/internal/types"
)

// ppl_timestampadd('unit', n, ts) and ppl_timestampdiff('unit', a, b)
// are PPL's (MySQL's) TIMESTAMPADD and TIMESTAMPDIFF over MICROSECOND,
// SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER and YEAR: a month
// added to the 31st is the month's last day; a difference counts whole
// units, toward zero.

var fixedUnits = map[string]int64{
	"MICROSECOND": 1, "SECOND": 1_000_000, "MINUTE": 60_000_000, "HOUR": 3_600_000_000,
	"DAY": 86_400_000_000, "WEEK": 7 * 86_400_000_000,
}

var monthUnits = map[string]int64{"MONTH": 1, "QUARTER": 3, "YEAR": 12}

func constUnit(fn string, a Arg) (string, error) {
	u, ok := a.Value.(string)
	if !a.Const || !ok {
		return "", fmt.Errorf("%s: the unit must be a constant", fn)
	}
	u = strings.ToUpper(strings.TrimPrefix(strings.ToUpper(u), "SQL_TSI_"))
	if _, ok := fixedUnits[u]; !ok && monthUnits[u] == 0 {
		return "", fmt.Errorf("%s: unknown unit %s", fn, u)
	}
	return u, nil
}

func bindPPLTimestampadd(args []Arg) (*Bound, error) {
	u, err := constUnit("ppl_timestampadd", args[0])
	if err != nil {
		return nil, err
	}
	return rowFn("ppl_timestampadd", types.Timestamp, ps(pString, pInt, pTemporalText), func(v []any) (any, error) {
		n := v[1].(int64)
		us, _, ok := pplParseTemporal(v[2])
		if !ok {
			return nil, nil
		}
		if f, ok := fixedUnits[u]; ok {
			return us + n*f, nil
		}
		return addMonthsClamped(types.FromMicros(us), int(n*monthUnits[u])).UnixMicro(), nil
	})(args)
}

func bindPPLTimestampdiff(args []Arg) (*Bound, error) {
	u, err := constUnit("ppl_timestampdiff", args[0])
	if err != nil {
		return nil, err
	}
	return rowFn("ppl_timestampdiff", types.BigInt, ps(pString, pTemporalText, pTemporalText), func(v []any) (any, error) {
		a, _, ok1 := pplParseTemporal(v[1])
		b, _, ok2 := pplParseTemporal(v[2])
		if !ok1 || !ok2 {
			return nil, nil
		}
		if f, ok := fixedUnits[u]; ok {
			return (b - a) / f, nil
		}
		ta, tb := types.FromMicros(a), types.FromMicros(b)
		months := int64((tb.Year()-ta.Year())*12 + int(tb.Month()) - int(ta.Month()))
		// The rest of each time within its month, to see whether the last
		// month is whole.
		restA := a - time.Date(ta.Year(), ta.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMicro()
		restB := b - time.Date(tb.Year(), tb.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMicro()
		if months > 0 && restB < restA {
			months--
		} else if months < 0 && restB > restA {
			months++
		}
		return months / monthUnits[u], nil
	})(args)
}
