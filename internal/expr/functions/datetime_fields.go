package functions

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// field extracts one calendar field from TIMESTAMP micros (UTC).
func field(name string) (func(us int64) int64, error) {
	day := func(us int64) int64 { return floorDiv(us, microsPerDay) }
	switch strings.ToLower(name) {
	case "year", "years", "yr", "y", "yyyy":
		return func(us int64) int64 { y, _, _ := types.CivilDate(day(us)); return y }, nil
	case "quarter", "quarters", "qtr":
		return func(us int64) int64 { _, m, _ := types.CivilDate(day(us)); return (m-1)/3 + 1 }, nil
	case "month", "months", "mon", "mm":
		return func(us int64) int64 { _, m, _ := types.CivilDate(day(us)); return m }, nil
	case "week", "weeks", "w", "weekofyear":
		return func(us int64) int64 { _, w := types.FromMicros(us).ISOWeek(); return int64(w) }, nil
	case "day", "days", "d", "dd", "dayofmonth":
		return func(us int64) int64 { _, _, d := types.CivilDate(day(us)); return d }, nil
	case "dayofweek", "dow":
		return func(us int64) int64 { return floorMod(day(us)+4, 7) + 1 }, nil
	case "dayofweek_iso", "dow_iso":
		return func(us int64) int64 { return floorMod(day(us)+3, 7) + 1 }, nil
	case "doy", "dayofyear":
		return func(us int64) int64 {
			d := day(us)
			y, _, _ := types.CivilDate(d)
			return d - types.DaysFromCivil(y, 1, 1) + 1
		}, nil
	case "hour", "hours", "h", "hr":
		return func(us int64) int64 { return floorMod(us, microsPerDay) / 3600_000_000 }, nil
	case "minute", "minutes", "min", "m":
		return func(us int64) int64 { return floorMod(us, 3600_000_000) / 60_000_000 }, nil
	case "second", "seconds", "sec", "s":
		return func(us int64) int64 { return floorMod(us, 60_000_000) / 1_000_000 }, nil
	case "millisecond", "milliseconds", "ms":
		return func(us int64) int64 { return floorMod(us, 60_000_000) / 1000 }, nil
	case "microsecond", "microseconds", "us":
		return func(us int64) int64 { return floorMod(us, 60_000_000) }, nil
	case "epoch":
		return func(us int64) int64 { return floorDiv(us, 1_000_000) }, nil
	}
	return nil, fmt.Errorf("unknown date/time field %q", name)
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// bindField serves year(x), month(x), ...: INT from a TIMESTAMP, DATE or
// timestamp string.
func bindField(name string) Binder {
	f, err := field(name)
	if err != nil {
		panic(err) // registry names only
	}
	return simple(name, types.Int, func([]Arg) Kernel { return fieldKernel(f) }, pTimestamp)
}

func fieldKernel(f func(int64) int64) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		var us []int64
		if args[0].DataType().ID() != arrow.NULL {
			us = i64s(args[0])
		}
		return fixedResult(types.Int, n, args, func(i int) (int32, bool) { return int32(f(us[i])), true }), nil
	}
}

// extract(field, x): the field name is a constant string, as the parser
// turns EXTRACT(YEAR FROM x) into extract('year', x).
func bindExtract(args []Arg) (*Bound, error) {
	name, ok := constString(args[0])
	if !ok {
		return nil, fmt.Errorf("function extract expects a constant field name")
	}
	f, err := field(name)
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	casts, err := coerceArgs("extract", args, pString, pTimestamp)
	if err != nil {
		return nil, err
	}
	k := fieldKernel(f)
	return &Bound{Type: types.Int, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		return k(ctx, n, args[1:])
	}}, nil
}

// truncUnit returns a function rounding TIMESTAMP micros down to unit.
func truncUnit(unit string) (func(us int64) int64, error) {
	fixed := func(step int64) func(int64) int64 {
		return func(us int64) int64 { return floorDiv(us, step) * step }
	}
	switch strings.ToLower(unit) {
	case "year", "yyyy", "yy", "years":
		return func(us int64) int64 {
			y, _, _ := types.CivilDate(floorDiv(us, microsPerDay))
			return types.DaysFromCivil(y, 1, 1) * microsPerDay
		}, nil
	case "quarter", "quarters":
		return func(us int64) int64 {
			y, m, _ := types.CivilDate(floorDiv(us, microsPerDay))
			return types.DaysFromCivil(y, (m-1)/3*3+1, 1) * microsPerDay
		}, nil
	case "month", "mon", "mm", "months":
		return func(us int64) int64 {
			y, m, _ := types.CivilDate(floorDiv(us, microsPerDay))
			return types.DaysFromCivil(y, m, 1) * microsPerDay
		}, nil
	case "week", "weeks":
		return func(us int64) int64 {
			d := floorDiv(us, microsPerDay)
			return (d - floorMod(d+3, 7)) * microsPerDay // back to Monday
		}, nil
	case "day", "dd", "days":
		return fixed(microsPerDay), nil
	case "hour", "hours":
		return fixed(3600_000_000), nil
	case "minute", "minutes":
		return fixed(60_000_000), nil
	case "second", "seconds":
		return fixed(1_000_000), nil
	case "millisecond", "milliseconds":
		return fixed(1000), nil
	case "microsecond", "microseconds":
		return fixed(1), nil
	}
	return nil, fmt.Errorf("unknown date_trunc unit %q (want year, quarter, month, week, day, hour, minute, second, millisecond or microsecond)", unit)
}

// date_trunc(unit, ts) -> TIMESTAMP. A constant unit is resolved once.
func bindDateTrunc(args []Arg) (*Bound, error) {
	casts, err := coerceArgs("date_trunc", args, pString, pTimestamp)
	if err != nil {
		return nil, err
	}
	var fixed func(int64) int64
	if u, ok := constString(args[0]); ok {
		if fixed, err = truncUnit(u); err != nil {
			return nil, err
		}
	}
	return &Bound{Type: types.Timestamp, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		if args[1].DataType().ID() == arrow.NULL {
			return nullArray(types.Timestamp, n), nil
		}
		us := i64s(args[1])
		if fixed != nil && args[0].NullN() == 0 {
			out := make([]arrow.Timestamp, n)
			for i, v := range us {
				out[i] = arrow.Timestamp(fixed(v))
			}
			valid, _ := validityAnd(n, args[1])
			return fixedArray(types.Timestamp, out, valid), nil
		}
		units := args[0]
		var ferr error
		out := fixedResult(types.Timestamp, n, args, func(i int) (arrow.Timestamp, bool) {
			f, err := truncUnit(ScalarValue(units, i).(string))
			if err != nil {
				ferr = err
				return 0, false
			}
			return arrow.Timestamp(f(us[i])), true
		})
		if ferr != nil {
			out.Release()
			return nil, ferr
		}
		return out, nil
	}}, nil
}

// now(), current_timestamp(): the query's time (see WithNow).
func bindNow(args []Arg) (*Bound, error) {
	return &Bound{Type: types.Timestamp, Eval: func(ctx context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
		return repeatFixed(types.Timestamp, arrow.Timestamp(Now(ctx).UnixMicro()), n), nil
	}}, nil
}

// current_date(): the UTC date of the query's time.
func bindCurrentDate(args []Arg) (*Bound, error) {
	return &Bound{Type: types.Date, Eval: func(ctx context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
		return repeatFixed(types.Date, arrow.Date32(floorDiv(Now(ctx).Unix(), 86400)), n), nil
	}}, nil
}

// datediff(end, start): days from start to end.
var bindDatediff = simple("datediff", types.Int, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		if args[0].DataType().ID() == arrow.NULL || args[1].DataType().ID() == arrow.NULL {
			return nullArray(types.Int, n), nil
		}
		e, s := i32s(args[0]), i32s(args[1])
		return fixedResult(types.Int, n, args, func(i int) (int32, bool) { return e[i] - s[i], true }), nil
	}
}, pDate, pDate)

// date_add(d, n) and date_sub(d, n) -> DATE.
func bindDateAdd(sign int32) Binder {
	name := "date_add"
	if sign < 0 {
		name = "date_sub"
	}
	return simple(name, types.Date, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			if args[0].DataType().ID() == arrow.NULL || args[1].DataType().ID() == arrow.NULL {
				return nullArray(types.Date, n), nil
			}
			d, k := i32s(args[0]), i64s(args[1])
			out := fixedResult(types.Date, n, args, func(i int) (arrow.Date32, bool) {
				return arrow.Date32(int64(d[i]) + int64(sign)*k[i]), true
			})
			// A day count past DATE's range is an overflow, not a wrap.
			if err := firstBad(n, nil, func(i int) error {
				if r := int64(d[i]) + int64(sign)*k[i]; out.IsValid(i) && (r < math.MinInt32 || r > math.MaxInt32 || k[i] == math.MinInt64) {
					return overflowErr(name, fmt.Sprintf("%s(%s, %d) does not fit in DATE", name, types.FormatDate(d[i]), k[i]))
				}
				return nil
			}); err != nil {
				out.Release()
				return nil, err
			}
			return out, nil
		}
	}, pDate, pInt)
}
