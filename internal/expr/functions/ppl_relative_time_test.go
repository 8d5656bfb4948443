package functions

import (
	"strings"
	"testing"
	"time"
)

func TestPPLRelativeTime(t *testing.T) {
	// A Wednesday, 2026-11-25 10:20:30 UTC.
	now := time.Date(2026, 11, 25, 10, 20, 30, 0, time.UTC)
	cases := []struct{ in, want string }{
		{"now", "2026-11-25 10:20:30"},
		{"now()", "2026-11-25 10:20:30"},
		{"-30s", "2026-11-25 10:20:00"},
		{"-7d", "2026-11-18 10:20:30"},
		{"+1d@d", "2026-11-26 00:00:00"},
		{"@m", "2026-11-25 10:20:00"},
		{"@h", "2026-11-25 10:00:00"},
		{"@w", "2026-11-22 00:00:00"},
		{"@w1", "2026-11-23 00:00:00"},
		{"@w3", "2026-11-25 00:00:00"},
		{"@w4", "2026-11-19 00:00:00"},
		{"-1month@month", "2026-10-01 00:00:00"},
		{"@q", "2026-10-01 00:00:00"},
		{"@y", "2026-01-01 00:00:00"},
		{"+1d@month-10h", "2026-10-31 14:00:00"},
		{"-h", "2026-11-25 09:20:30"},
		{"2024-12-31 23:59:59", "2024-12-31 23:59:59"},
		{"12/31/2024:23:59:59", "2024-12-31 23:59:59"},
		{"2024-02-01T09:13:00Z", "2024-02-01 09:13:00"},
	}
	for _, c := range cases {
		got, err := PPLRelativeTime(c.in, now)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if s := got.Format("2006-01-02 15:04:05"); s != c.want {
			t.Errorf("%s = %s, want %s", c.in, s, c.want)
		}
	}
	month, _ := PPLRelativeTime("+1mon", time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC))
	if month.Format("2006-01-02") != "2026-02-28" {
		t.Errorf("Jan 31 +1mon = %s, want 2026-02-28", month)
	}
	for _, bad := range []string{"-7x", "yesterday", "", "@"} {
		if _, err := PPLRelativeTime(bad, now); err == nil || !strings.Contains(err.Error(), "time modifier") && bad != "" {
			t.Errorf("%q: want a time modifier error, got %v", bad, err)
		}
	}
}
