package functions

import "testing"

func TestPPLRandSeeds(t *testing.T) {
	// new java.util.Random(s).nextDouble(); RAND(3) seeds 3 ^ (3 << 16).
	for _, c := range []struct {
		seed int64
		want []float64
	}{
		{3, []float64{0.731057369148862}},
		{42, []float64{0.7275636800328681, 0.6832234717598454, 0.30871945533265976}},
		{3 ^ 3<<16, []float64{0.34346429521113886}},
	} {
		r := newJavaRandom(c.seed)
		for i, w := range c.want {
			if got := r.nextDouble(); got != w {
				t.Errorf("seed %d, draw %d: got %v, want %v", c.seed, i, got, w)
			}
		}
	}
}
