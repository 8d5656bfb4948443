package flint

import "testing"

// TestRefreshTrigger: one catch-up without auto_refresh, whatever the
// interval; with it, the interval, a minute when unset.
func TestRefreshTrigger(t *testing.T) {
	for _, tc := range []struct {
		auto     bool
		interval string
		want     string
	}{
		{false, "", "available_now"},
		{false, "5 minutes", "available_now"},
		{true, "", "1 minute"},
		{true, "5 minutes", "5 minutes"},
	} {
		if got := (ViewSpec{AutoRefresh: tc.auto, Interval: tc.interval}).Trigger(); got != tc.want {
			t.Errorf("auto %t interval %q: %q, want %q", tc.auto, tc.interval, got, tc.want)
		}
	}
}
