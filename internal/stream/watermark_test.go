package stream

import "testing"

func TestWatermark(t *testing.T) {
	w := NewWatermark(60, 0)
	if w.Current() != NoWatermark {
		t.Fatal("no watermark before events")
	}
	steps := []struct{ max, want int64 }{
		{100, 40}, {80, 40}, {NoWatermark, 40}, {200, 140}, {150, 140},
	}
	for i, s := range steps {
		w.Observe(s.max, 0)
		if got := w.Current(); got != s.want {
			t.Fatalf("step %d: watermark %d, want %d", i, got, s.want)
		}
	}
	// Idle timeout: processing time advances an idle stream.
	w = NewWatermark(10, 5)
	w.Observe(100, 1000)
	w.Observe(NoWatermark, 1001)
	w.Observe(NoWatermark, 1004)
	if w.Current() != 90 {
		t.Fatalf("before the timeout: %d", w.Current())
	}
	w.Observe(NoWatermark, 1007)
	if w.Current() != 96 {
		t.Fatalf("after the timeout: %d, want 96", w.Current())
	}
}
