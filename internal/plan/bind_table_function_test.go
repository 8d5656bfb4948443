package plan

import (
	"math"
	"testing"
)

func TestRangeCount(t *testing.T) {
	for _, tc := range []struct {
		start, end, step, want int64
	}{
		{0, 3, 1, 3},
		{2, 8, 2, 3},
		{0, 10, 3, 4},
		{10, 0, -3, 4},
		{5, 5, 1, 0},
		{5, 1, 1, 0},
		{1, 5, -1, 0},
		{math.MinInt64, math.MaxInt64, math.MaxInt64, 3},
		{math.MaxInt64 - 1, math.MaxInt64, 1, 1},
		{math.MinInt64, math.MaxInt64, 1, 1 << 62},
	} {
		if got := rangeCount(tc.start, tc.end, tc.step); got != tc.want {
			t.Errorf("rangeCount(%d, %d, %d) = %d, want %d", tc.start, tc.end, tc.step, got, tc.want)
		}
	}
}
