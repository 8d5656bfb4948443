package sparkstmt

import (
	"testing"
	"time"
)

func TestSparkTime(t *testing.T) {
	for _, c := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 12, 2, 8, 14, 45, 0, time.UTC), "Wed Dec 02 08:14:45 UTC 2026"},
		{time.Time{}, "UNKNOWN"},
	} {
		if got := sparkTime(c.in); got != c.want {
			t.Errorf("sparkTime(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
