package functions

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// JavaLayout translates a Java/Spark datetime pattern (yyyy-MM-dd
// HH:mm:ss.SSS) into a Go time layout. Supported letters: y, M (1-4),
// d, D, H, h, m, s, S (fraction), a, E, Z, X, x, z, and 'quoted text'.
func JavaLayout(p string) (string, error) {
	var b strings.Builder
	rs := []rune(p)
	for i := 0; i < len(rs); {
		c := rs[i]
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		n := j - i
		switch c {
		case '\'':
			// 'text' is literal; '' is a quote.
			k := i + 1
			if k < len(rs) && rs[k] == '\'' {
				b.WriteRune('\'')
				i = k + 1
				continue
			}
			for k < len(rs) && rs[k] != '\'' {
				b.WriteRune(rs[k])
				k++
			}
			if k == len(rs) {
				return "", fmt.Errorf("unterminated quote in datetime pattern %q", p)
			}
			i = k + 1
			continue
		case 'y', 'u':
			if n == 2 {
				b.WriteString("06")
			} else {
				b.WriteString("2006")
			}
		case 'M', 'L':
			switch n {
			case 1:
				b.WriteString("1")
			case 2:
				b.WriteString("01")
			case 3:
				b.WriteString("Jan")
			default:
				b.WriteString("January")
			}
		case 'd':
			if n == 1 {
				b.WriteString("2")
			} else {
				b.WriteString("02")
			}
		case 'D':
			b.WriteString("002")
		case 'H', 'k':
			b.WriteString("15")
		case 'h', 'K':
			if n == 1 {
				b.WriteString("3")
			} else {
				b.WriteString("03")
			}
		case 'm':
			if n == 1 {
				b.WriteString("4")
			} else {
				b.WriteString("04")
			}
		case 's':
			if n == 1 {
				b.WriteString("5")
			} else {
				b.WriteString("05")
			}
		case 'S':
			// Go needs the fraction right after a '.' or ','.
			if out := b.String(); !strings.HasSuffix(out, ".") && !strings.HasSuffix(out, ",") {
				b.WriteString(".")
			}
			b.WriteString(strings.Repeat("0", n))
		case 'a':
			b.WriteString("PM")
		case 'E':
			if n >= 4 {
				b.WriteString("Monday")
			} else {
				b.WriteString("Mon")
			}
		case 'Z':
			b.WriteString("-0700")
		case 'X':
			switch n {
			case 1:
				b.WriteString("Z07")
			case 2:
				b.WriteString("Z0700")
			default:
				b.WriteString("Z07:00")
			}
		case 'x':
			switch n {
			case 1:
				b.WriteString("-07")
			case 2:
				b.WriteString("-0700")
			default:
				b.WriteString("-07:00")
			}
		case 'z', 'V':
			b.WriteString("MST")
		default:
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				return "", fmt.Errorf("unsupported letter %q in datetime pattern %q", c, p)
			}
			b.WriteString(string(rs[i:j]))
		}
		i = j
	}
	return b.String(), nil
}

// layoutCache memoizes translated patterns (formats repeat per row).
var layoutCache sync.Map

func layoutOf(p string) (string, error) {
	if l, ok := layoutCache.Load(p); ok {
		return l.(string), nil
	}
	l, err := JavaLayout(p)
	if err != nil {
		return "", err
	}
	layoutCache.Store(p, l)
	return l, nil
}

const defaultTimestampPattern = "yyyy-MM-dd HH:mm:ss"

// formatArg resolves the pattern argument j of a kernel per row.
func patternAt(args []arrow.Array, j, i int, def string) (string, error) {
	if j >= len(args) {
		return layoutOf(def)
	}
	return layoutOf(args[j].(*array.String).Value(i))
}

// checkPattern validates a constant pattern at bind time.
func checkPattern(fn string, args []Arg, j int) error {
	if j < len(args) {
		if p, ok := constString(args[j]); ok {
			if _, err := layoutOf(p); err != nil {
				return fmt.Errorf("%s: %w", fn, err)
			}
		}
	}
	return nil
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
		l, err := patternAt(args, 1, i, defaultTimestampPattern)
		if err != nil {
			ferr = err
			return "", false
		}
		return types.FromMicros(us(i)).Format(l), true
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

// parseWith parses s with a Java pattern (UTC unless the text has a zone),
// or as ISO-8601 when there is no pattern.
func parseWith(s string, args []arrow.Array, j, i int) (int64, bool) {
	if j >= len(args) {
		return types.ParseTimestamp(s)
	}
	l, err := patternAt(args, j, i, "")
	if err != nil {
		return 0, false
	}
	t, err := time.ParseInLocation(l, strings.TrimSpace(s), time.UTC)
	if err != nil {
		return 0, false
	}
	return t.UnixMicro(), true
}

// to_timestamp(s[, pattern]) and to_date(s[, pattern]): NULL when the
// text does not parse (Spark's non-ANSI behaviour).
func bindToTimestamp(date bool) Binder {
	fn, rt := "to_timestamp", types.Timestamp
	if date {
		fn, rt = "to_date", types.Date
	}
	return func(args []Arg) (*Bound, error) {
		if err := checkPattern(fn, args, 1); err != nil {
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
			if date {
				return fixedResult(rt, n, args, func(i int) (arrow.Date32, bool) {
					us, ok := parseWith(s.Value(i), args, 1, i)
					return arrow.Date32(floorDiv(us, microsPerDay)), ok
				}), nil
			}
			return fixedResult(rt, n, args, func(i int) (arrow.Timestamp, bool) {
				us, ok := parseWith(s.Value(i), args, 1, i)
				return arrow.Timestamp(us), ok
			}), nil
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
	if err := checkPattern("unix_timestamp", args, 1); err != nil {
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
		return fixedResult(types.BigInt, n, args, func(i int) (int64, bool) {
			if len(args) == 1 {
				if us, ok := types.ParseTimestamp(s.Value(i)); ok {
					return floorDiv(us, 1_000_000), true
				}
				return 0, false
			}
			us, ok := parseWith(s.Value(i), args, 1, i)
			return floorDiv(us, 1_000_000), ok
		}), nil
	}}, nil
}
