package functions_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

func TestCastTable(t *testing.T) {
	tests := []struct {
		from arrow.DataType
		in   []any
		to   arrow.DataType
		want []any
		err  string
	}{
		{types.String, []any{"1", " -2 ", "1.9", nil}, types.Int, []any{int64(1), int64(-2), int64(1), nil}, ""},
		{types.String, []any{"99999999999"}, types.Int, nil, "cannot cast '99999999999' to INT"},
		{types.String, []any{"1e3", "NaN", "-inf"}, types.Double, []any{1000.0, nil, nil}, ""},
		{types.String, []any{"yes", "F", "maybe"}, types.Boolean, nil, "cannot cast 'maybe' to BOOLEAN"},
		{types.String, []any{"12.345"}, types.Decimal(5, 2), []any{"12.35"}, ""},
		{types.String, []any{"2024-01-02T03:04:05.5+01:00"}, types.Timestamp, []any{tm("2024-01-02 02:04:05.5")}, ""},
		{types.String, []any{"2024-01-02 10:00:00"}, types.Date, []any{"2024-01-02"}, ""},
		{types.String, []any{"90 minutes"}, types.Interval, []any{arrow.MonthDayNanoInterval{Nanoseconds: 5400e9}}, ""},
		// Narrowing out of range fails (NULL under TRY_CAST) instead of
		// wrapping or saturating, as Spark's ANSI casts do.
		{types.Double, []any{2147483647.9, -1.5}, types.Int, []any{int64(2147483647), int64(-1)}, ""},
		{types.Double, []any{1.0, 1e20}, types.Int, nil, "cannot cast 1e+20 to INT"},
		{types.Double, []any{math.NaN()}, types.BigInt, nil, "cannot cast NaN to BIGINT"},
		{types.Double, []any{9.3e18}, types.BigInt, nil, "cannot cast 9.3e+18 to BIGINT"},
		{types.BigInt, []any{int64(-2147483648), nil}, types.Int, []any{int64(-2147483648), nil}, ""},
		{types.BigInt, []any{int64(3000000000)}, types.Int, nil, "cannot cast 3000000000 to INT"},
		{types.Decimal(38, 0), []any{"99999999999999999999"}, types.BigInt, nil, "cannot cast 99999999999999999999 to BIGINT"},
		{types.Decimal(12, 1), []any{"3000000000.5"}, types.Int, nil, "cannot cast 3000000000 to INT"},
		{types.Double, []any{0.125}, types.Decimal(4, 3), []any{"0.125"}, ""},
		{types.BigInt, []any{int64(1700000000)}, types.Timestamp, []any{tm("2023-11-14 22:13:20")}, ""},
		{types.Timestamp, []any{"2023-11-14 22:13:20"}, types.BigInt, []any{int64(1700000000)}, ""},
		{types.Date, []any{"2024-01-02"}, types.Timestamp, []any{tm("2024-01-02")}, ""},
		{types.Decimal(6, 2), []any{"-12.75"}, types.BigInt, []any{int64(-12)}, ""},
		{types.Decimal(6, 2), []any{"-12.75"}, types.Double, []any{-12.75}, ""},
		{types.Decimal(6, 2), []any{"1234.56"}, types.Decimal(5, 1), []any{"1234.6"}, ""},
		{types.Decimal(6, 2), []any{"1234.56"}, types.Decimal(4, 1), nil, "cannot cast '1234.56' to DECIMAL(4,1)"},
		{types.Boolean, []any{true, false}, types.String, []any{"true", "false"}, ""},
		{types.Array(types.BigInt), []any{[]any{int64(1), nil}}, types.Array(types.String), []any{[]any{"1", nil}}, ""},
		{types.Array(types.BigInt), []any{[]any{int64(1), int64(2)}}, types.String, []any{"[1, 2]"}, ""},
	}
	for _, tc := range tests {
		b := array.NewBuilder(memory.DefaultAllocator, tc.from)
		for _, v := range tc.in {
			if err := functions.AppendValue(b, v); err != nil {
				t.Fatal(err)
			}
		}
		arr := b.NewArray()
		b.Release()
		out, err := functions.Cast(context.Background(), arr, tc.to, false)
		name := types.SQLName(tc.from) + " -> " + types.SQLName(tc.to)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %v: error %v, want %q", name, tc.in, err, tc.err)
			}
			// TRY_CAST gives NULL instead.
			out, err = functions.Cast(context.Background(), arr, tc.to, true)
			if err != nil {
				t.Errorf("%s try: %v", name, err)
			} else {
				if out.NullN() == 0 {
					t.Errorf("%s try: no NULL for the bad value", name)
				}
				out.Release()
			}
			arr.Release()
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", name, tc.in, err)
			arr.Release()
			continue
		}
		got := make([]any, out.Len())
		for i := range got {
			got[i] = types.ValueAt(out, i)
		}
		if tc.to.ID() == arrow.FLOAT64 && len(tc.in) == 3 {
			// NaN and -Infinity do not compare equal; check they parsed.
			if got[0] != 1000.0 || got[1] == nil || got[2] == nil {
				t.Errorf("%s = %v", name, got)
			}
		} else if !eq(got, tc.want) {
			t.Errorf("%s %v = %#v, want %#v", name, tc.in, got, tc.want)
		}
		out.Release()
		arr.Release()
	}
	if functions.CanCast(types.Date, types.Int) || !functions.CanCast(types.Null, types.Array(types.Int)) {
		t.Error("CanCast")
	}
}
