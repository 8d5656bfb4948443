package functions

import "testing"

// TestDigestIndex checks the rank rule against OpenSearch's documented
// answers over ages 28, 32, 33, 36 (median 33, p90 36, p99.5 36).
func TestDigestIndex(t *testing.T) {
	for _, c := range []struct {
		n    int
		q    float64
		want int
	}{
		{4, 0.5, 2}, {4, 0.9, 3}, {4, 0.995, 3}, {4, 0, 0}, {4, 0.25, 1},
		{4, 0.3, 1}, {3, 0.9, 2}, {1, 0.9, 0}, {5, 0.5, 2}, {2, 0.5, 1},
	} {
		got, ok := digestIndex(c.n, c.q)
		if !ok || got != c.want {
			t.Errorf("digestIndex(%d, %v) = %d, want %d", c.n, c.q, got, c.want)
		}
	}
	if _, ok := digestIndex(0, 0.5); ok {
		t.Error("an empty group has a percentile")
	}
}
