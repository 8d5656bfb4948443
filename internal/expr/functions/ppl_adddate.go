package functions

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_adddate(x, days) is PPL's ADDDATE/DATE_ADD with a number of days
// (ppl_subdate subtracts): a TIMESTAMP stays a TIMESTAMP
// (ADDDATE(TIMESTAMP '2020-08-26 01:01:01', 1) is 2020-08-27 01:01:01),
// where Spark's date_add gives the DATE. Other values are dates. The
// INTERVAL form is timestamp arithmetic, written so by the PPL front end.
func bindPPLAdddate(sign int64) Binder {
	fn := "ppl_adddate"
	if sign < 0 {
		fn = "ppl_subdate"
	}
	return func(args []Arg) (*Bound, error) {
		if args[0].Type.ID() == arrow.TIMESTAMP {
			return rowFn(fn, types.Timestamp, ps(pTimestamp, pInt), func(v []any) (any, error) {
				return v[0].(int64) + sign*v[1].(int64)*86_400_000_000, nil
			})(args)
		}
		if !types.IsTemporal(args[0].Type) && !types.IsString(args[0].Type) && args[0].Type.ID() != arrow.NULL {
			return nil, fmt.Errorf("%s: expects a DATE or TIMESTAMP, got %s", fn, sqlName(args[0].Type))
		}
		return rowFn(fn, types.Date, ps(pDate, pInt), func(v []any) (any, error) {
			return v[0].(int64) + sign*v[1].(int64), nil
		})(args)
	}
}
