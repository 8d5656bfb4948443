package functions

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// TestKLLExactQuantiles checks the selected answer of a sketch that has
// not compacted against the definition (the value at rank ceil(p n)),
// percentages in any order and repeated, and
// that a sketch with a NaN or a compacted level still answers.
func TestKLLExactQuantiles(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	ps := []float64{0.5, 0, 0.99, 0.25, 0.5, 1, 0.001, 0.999}
	for _, n := range []int{1, 2, 3, 10, 17, 999, 1000} {
		s := &KLL{K: 1000}
		var vs []float64
		for i := 0; i < n; i++ {
			v := math.Round(r.NormFloat64()*100) / 4
			s.Add(v)
			vs = append(vs, v)
		}
		slices.Sort(vs)
		got := s.Quantiles(ps)
		for i, p := range ps {
			want := vs[min(max(int(math.Ceil(p*float64(n))), 1), n)-1]
			if got[i] != want {
				t.Fatalf("n=%d p=%v: %v, want %v", n, p, got[i], want)
			}
		}
	}
	s := &KLL{K: 1000}
	for _, v := range []float64{3, math.NaN(), 1} {
		s.Add(v)
	}
	if got := s.Quantiles([]float64{0.5}); len(got) != 1 {
		t.Fatal(got)
	}
	big := &KLL{K: 100}
	for i := 0; i < 1000; i++ {
		big.Add(float64(i))
	}
	if got := big.Quantiles([]float64{0.5})[0]; got < 400 || got > 600 {
		t.Fatalf("compacted median %v", got)
	}
}
