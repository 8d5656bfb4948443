package functions

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

const defaultTimestampPattern = "yyyy-MM-dd HH:mm:ss"

// patternAt resolves the pattern argument j of a kernel per row
// (datetime_pattern.go's table, shared by formatting and parsing).
func patternAt(args []arrow.Array, j, i int, def string) (*dtPattern, error) {
	if j >= len(args) {
		return compileDatetimePattern(def)
	}
	return compileDatetimePattern(args[j].(*array.String).Value(i))
}

// checkPattern validates a constant pattern at bind time.
func checkPattern(fn string, args []Arg, j int) error {
	_, err := checkPatternFor(fn, args, j)
	return err
}

// checkParsePattern is checkPattern for the parsing functions, which
// also refuse the letters Spark only formats (E F q Q).
func checkParsePattern(fn string, args []Arg, j int) error {
	dp, err := checkPatternFor(fn, args, j)
	if err == nil && dp != nil && dp.parseErr != nil {
		err = fmt.Errorf("%s: %w", fn, dp.parseErr)
	}
	return err
}

func checkPatternFor(fn string, args []Arg, j int) (*dtPattern, error) {
	if j < len(args) {
		if p, ok := constString(args[j]); ok {
			dp, err := compileDatetimePattern(p)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", fn, err)
			}
			return dp, nil
		}
	}
	return nil, nil
}

// date_format(ts, pattern) -> STRING.
func bindDateFormat(args []Arg) (*Bound, error) {
	if err := checkPattern("date_format", args, 1); err != nil {
		return nil, err
	}
	casts, err := coerceArgs("date_format", args, pTimestamp, pString)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: types.String, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		return formatMicros(n, args, func(i int) int64 { return i64s(args[0])[i] })
	}}, nil
}

func formatMicros(n int, args []arrow.Array, us func(i int) int64) (arrow.Array, error) {
	var ferr error
	out := strResult(n, args, false, func(i int) (string, bool) {
		dp, err := patternAt(args, 1, i, defaultTimestampPattern)
		if err != nil {
			ferr = err
			return "", false
		}
		return dp.format(types.FromMicros(us(i))), true
	})
	if ferr != nil {
		out.Release()
		return nil, ferr
	}
	return out, nil
}

// from_unixtime(seconds[, pattern]) -> STRING, like Spark.
func bindFromUnixtime(args []Arg) (*Bound, error) {
	if err := checkPattern("from_unixtime", args, 1); err != nil {
		return nil, err
	}
	casts, err := coerceArgs("from_unixtime", args, pInt, pString)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: types.String, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		if args[0].DataType().ID() == arrow.NULL {
			return nullArray(types.String, n), nil
		}
		secs := i64s(args[0])
		valid, _ := validityAnd(n, args[0])
		if err := firstBad(n, valid, func(i int) error {
			if secs[i] > math.MaxInt64/1_000_000 || secs[i] < math.MinInt64/1_000_000 {
				return overflowErr("from_unixtime", fmt.Sprintf("from_unixtime(%d) does not fit in TIMESTAMP", secs[i]))
			}
			return nil
		}); err != nil {
			return nil, err
		}
		return formatMicros(n, args, func(i int) int64 { return secs[i] * 1_000_000 })
	}}, nil
}

// parseWith parses s with a Spark pattern (UTC unless the text has a
// zone), or as ISO-8601 when there is no pattern. A bad pattern, or
// text only Spark 2's parser would take, is an error (as in Spark).
func parseWith(s string, args []arrow.Array, j, i int) (int64, bool, error) {
	if j >= len(args) {
		us, ok := types.ParseTimestamp(s)
		return us, ok, nil
	}
	if args[j].IsNull(i) {
		return 0, false, nil
	}
	dp, err := patternAt(args, j, i, "")
	if err != nil {
		return 0, false, err
	}
	return dp.parseSpark(s)
}

// to_timestamp(s[, pattern]) and to_date(s[, pattern]): NULL when the
// text does not parse (Spark's non-ANSI behaviour).
func bindToTimestamp(date bool) Binder {
	fn, rt := "to_timestamp", types.Timestamp
	if date {
		fn, rt = "to_date", types.Date
	}
	return func(args []Arg) (*Bound, error) {
		if err := checkParsePattern(fn, args, 1); err != nil {
			return nil, err
		}
		t := types.Normalize(args[0].Type)
		if !types.IsString(t) && t.ID() != arrow.NULL {
			// Timestamps and dates convert directly.
			if !types.IsTemporal(t) {
				return nil, fmt.Errorf("function %s expects STRING, DATE or TIMESTAMP, got %s", fn, sqlName(t))
			}
			return &Bound{Type: rt, Casts: []arrow.DataType{rt}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				args[0].Retain()
				return args[0], nil
			}}, nil
		}
		casts, err := coerceArgs(fn, args, pString, pString)
		if err != nil {
			return nil, err
		}
		return &Bound{Type: rt, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			if args[0].DataType().ID() == arrow.NULL {
				return nullArray(rt, n), nil
			}
			s := args[0].(*array.String)
			var perr error
			parse := func(i int) (int64, bool) {
				us, ok, err := parseWith(s.Value(i), args, 1, i)
				if err != nil && perr == nil {
					perr = err
				}
				return us, ok
			}
			var out arrow.Array
			if date {
				out = fixedResult(rt, n, args, func(i int) (arrow.Date32, bool) {
					us, ok := parse(i)
					return arrow.Date32(floorDiv(us, microsPerDay)), ok
				})
			} else {
				out = fixedResult(rt, n, args, func(i int) (arrow.Timestamp, bool) {
					us, ok := parse(i)
					return arrow.Timestamp(us), ok
				})
			}
			if perr != nil {
				out.Release()
				return nil, perr
			}
			return out, nil
		}}, nil
	}
}

// unix_timestamp([x[, pattern]]) -> BIGINT seconds: now without
// arguments, a TIMESTAMP or DATE's seconds, or parsed text (pattern
// default yyyy-MM-dd HH:mm:ss, ISO-8601 accepted too).
func bindUnixTimestamp(args []Arg) (*Bound, error) {
	if len(args) == 0 {
		return &Bound{Type: types.BigInt, Eval: func(ctx context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
			return repeatFixed(types.BigInt, Now(ctx).Unix(), n), nil
		}}, nil
	}
	if err := checkParsePattern("unix_timestamp", args, 1); err != nil {
		return nil, err
	}
	t := types.Normalize(args[0].Type)
	if types.IsTemporal(t) {
		return &Bound{Type: types.BigInt, Casts: []arrow.DataType{types.Timestamp, nil}[:len(args)], Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			us := i64s(args[0])
			return fixedResult(types.BigInt, n, args[:1], func(i int) (int64, bool) { return floorDiv(us[i], 1_000_000), true }), nil
		}}, nil
	}
	casts, err := coerceArgs("unix_timestamp", args, pString, pString)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: types.BigInt, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		if args[0].DataType().ID() == arrow.NULL {
			return nullArray(types.BigInt, n), nil
		}
		s := args[0].(*array.String)
		var perr error
		out := fixedResult(types.BigInt, n, args, func(i int) (int64, bool) {
			if len(args) == 1 {
				if us, ok := types.ParseTimestamp(s.Value(i)); ok {
					return floorDiv(us, 1_000_000), true
				}
				return 0, false
			}
			us, ok, err := parseWith(s.Value(i), args, 1, i)
			if err != nil && perr == nil {
				perr = err
			}
			return floorDiv(us, 1_000_000), ok
		})
		if perr != nil {
			out.Release()
			return nil, perr
		}
		return out, nil
	}}, nil
}
