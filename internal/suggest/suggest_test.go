package suggest

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"alb_logs", "events", "status", "Count"}
	for _, tc := range []struct{ in, want string }{
		{"alb_log", "alb_logs"}, {"evnets", "events"}, {"STATUS", "status"}, {"cuont", "Count"},
		{"xyz", ""}, {"ab", ""},
	} {
		if got := Closest(tc.in, known); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := DidYouMean("evnts", known); got != `; did you mean "events"?` {
		t.Errorf("DidYouMean = %q", got)
	}
	if EditDistance("ab", "ba") != 1 || EditDistance("", "abc") != 3 {
		t.Error("EditDistance")
	}
}
