package streams

import "testing"

func TestMicrosText(t *testing.T) {
	for us, want := range map[int64]string{
		0: "0 seconds", 60_000_000: "1 minute", 120_000_000: "2 minutes",
		1_000_000: "1 second", 90_000_000: "90 seconds", 1500: "1500 microseconds", 1: "1 microsecond",
	} {
		if got := microsText(us); got != want {
			t.Errorf("microsText(%d) = %q, want %q", us, got, want)
		}
	}
}
