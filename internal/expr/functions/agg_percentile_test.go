package functions

import (
	"math"
	"testing"
)

// A sketch that never compacted answers the exact percentile: the value
// at rank ceil(p*n) of its sorted values, whatever order they came in.
func TestKLLExactBelowAccuracy(t *testing.T) {
	var s KLL
	s.K = 1000
	n := 997
	for i := 0; i < n; i++ {
		s.Add(float64(i * 389 % n))
	}
	ps := []float64{0, 0.001, 0.25, 0.5, 0.99, 0.999, 1}
	got := s.Quantiles(ps)
	for i, p := range ps {
		want := math.Max(math.Ceil(p*float64(n))-1, 0)
		if got[i] != want {
			t.Errorf("p %v: %v, want %v", p, got[i], want)
		}
	}
}
