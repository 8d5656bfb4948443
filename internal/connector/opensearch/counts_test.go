package opensearch

import (
	"math/rand/v2"
	"testing"
)

// TestRowCounts checks the table against a map through growth, colliding
// low bits, hash 0 and a reset.
func TestRowCounts(t *testing.T) {
	var c rowCounts
	want := map[uint64]uint32{}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 2; round++ {
		for i := 0; i < 50000; i++ {
			var h uint64
			switch i % 4 {
			case 0:
				h = rng.Uint64()
			case 1:
				h = uint64(rng.IntN(5000)) << 40 // same low bits: long probes
			case 2:
				h = uint64(rng.IntN(100)) // repeats
			}
			if got := c.next(h); got != want[h] {
				t.Fatalf("round %d, hash %x: count %d, want %d", round, h, got, want[h])
			}
			want[h]++
		}
		c.reset()
		clear(want)
	}
}
