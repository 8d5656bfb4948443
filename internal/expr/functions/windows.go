package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// WindowType is the value of tumble/window/hop/session:
// STRUCT<start: TIMESTAMP, end: TIMESTAMP>.
var WindowType = types.Struct(
	arrow.Field{Name: "start", Type: types.Timestamp},
	arrow.Field{Name: "end", Type: types.Timestamp},
)

// IntervalArg reads a window size: a constant INTERVAL, or a string such
// as '5 minutes'. It must be positive and of fixed length (months count
// as 30 days, see types.IntervalMicros).
func IntervalArg(fn string, a Arg) (int64, error) {
	if !a.Const {
		return 0, fmt.Errorf("function %s expects a constant interval", fn)
	}
	var iv arrow.MonthDayNanoInterval
	switch v := a.Value.(type) {
	case arrow.MonthDayNanoInterval:
		iv = v
	case string:
		var err error
		if iv, err = types.ParseInterval(v); err != nil {
			return 0, fmt.Errorf("function %s: %w", fn, err)
		}
	default:
		return 0, fmt.Errorf("function %s expects an interval such as '5 minutes', got %s", fn, sqlName(a.Type))
	}
	us := types.IntervalMicros(iv)
	if us <= 0 {
		return 0, fmt.Errorf("function %s expects a positive interval, got %s", fn, types.FormatInterval(iv))
	}
	return us, nil
}

// TumbleStart is the start of the size-long window holding ts, aligned
// to the Unix epoch.
func TumbleStart(ts, size int64) int64 { return floorDiv(ts, size) * size }

// HopStarts returns the starts of every size-long window, sliding by
// slide, that holds ts, earliest first.
func HopStarts(ts, size, slide int64) []int64 {
	last := floorDiv(ts, slide) * slide
	var out []int64
	for s := last; s > ts-size; s -= slide {
		out = append([]int64{s}, out...)
	}
	return out
}

// tumble(ts, size) and window(ts, size): the tumbling window holding ts.
func bindTumble(fn string) Binder {
	return func(args []Arg) (*Bound, error) {
		if len(args) == 3 {
			return nil, fmt.Errorf("%s(ts, size, slide) puts a row in several windows: use hop(ts, size, slide), which the planner expands", fn)
		}
		casts, err := coerceArgs(fn, args, pTimestamp, pAny)
		if err != nil {
			return nil, err
		}
		casts[1] = nil
		size, err := IntervalArg(fn, args[1])
		if err != nil {
			return nil, err
		}
		return &Bound{Type: WindowType, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			return windowStructs(n, args[0], func(us int64) int64 { return TumbleStart(us, size) }, size), nil
		}}, nil
	}
}

// windowStructs builds {start, end} for each non-NULL timestamp.
func windowStructs(n int, tsArr arrow.Array, start func(int64) int64, size int64) arrow.Array {
	if tsArr.DataType().ID() == arrow.NULL {
		return nullArray(WindowType, n)
	}
	us := i64s(tsArr)
	starts := make([]arrow.Timestamp, n)
	ends := make([]arrow.Timestamp, n)
	for i, v := range us {
		s := start(v)
		starts[i], ends[i] = arrow.Timestamp(s), arrow.Timestamp(s+size)
	}
	valid, _ := validityAnd(n, tsArr)
	sa := fixedArray(types.Timestamp, starts, nil)
	ea := fixedArray(types.Timestamp, ends, nil)
	defer sa.Release()
	defer ea.Release()
	nulls := countNulls(valid, n)
	d := array.NewData(WindowType, n, []*memory.Buffer{valid}, []arrow.ArrayData{sa.Data(), ea.Data()}, nulls, 0)
	defer d.Release()
	if valid != nil {
		valid.Release()
	}
	return array.MakeFromData(d)
}

// bindGeneratorOnly rejects scalar use of generators; the registry lists
// them so that IsFunction knows the names.
func bindGeneratorOnly(fn string) Binder {
	return func(args []Arg) (*Bound, error) {
		return nil, fmt.Errorf("%s produces several rows per input row: use it as a SELECT item on its own", fn)
	}
}
