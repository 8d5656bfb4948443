package functions

import (
	"bytes"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// TestHLLDownsample: downsampling a sketch gives the registers the
// smaller sketch would have had from the same hashes (the guard bit
// aside, which only caps ranks past 50).
func TestHLLDownsample(t *testing.T) {
	big, small := &HLL{P: 14}, &HLL{P: 10}
	var buf [8]byte
	for i := 0; i < 50000; i++ {
		buf[0], buf[1], buf[2] = byte(i), byte(i>>8), byte(i>>16)
		h := xxhash.Sum64(buf[:])
		big.Add(h)
		small.Add(h)
	}
	got := big.downsample(10)
	if !bytes.Equal(got.Regs, small.Regs) {
		t.Fatalf("downsampled registers differ from a direct P=10 sketch")
	}
}

func TestHLLEncodeRoundTrip(t *testing.T) {
	for _, n := range []int{0, 3, 5000} {
		h := &HLL{P: 12}
		for i := 0; i < n; i++ {
			h.Add(xxhash.Sum64([]byte{byte(i), byte(i >> 8)}))
		}
		d, err := decodeHLL(encodeHLL(h))
		if err != nil {
			t.Fatal(err)
		}
		if d.Estimate() != h.Estimate() || !bytes.Equal(encodeHLL(d), encodeHLL(h)) {
			t.Fatalf("n=%d: round trip changed the sketch", n)
		}
	}
	if _, err := decodeHLL([]byte("SLHL\x01\x0c\x01abc")); err == nil {
		t.Fatal("a truncated dense sketch decoded")
	}
}
