package functions

import (
	"encoding/hex"
	"strings"
	"testing"
)

// sparkHashInt is Spark's Murmur3_x86_32.hashInt, to check the byte hash
// through Spark's hash() example.
func sparkHashInt(x int32, seed int32) int32 {
	h := murmurMixH1(uint32(seed), murmurMixK1(uint32(x)))
	h ^= 4
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int32(h)
}

// TestSparkMurmur3: Spark documents hash('Spark', array(123), 2) =
// -1321691492, each value hashed with the previous hash as seed from 42.
func TestSparkMurmur3(t *testing.T) {
	h := sparkMurmur3Bytes([]byte("Spark"), 42)
	h = sparkHashInt(123, h)
	h = sparkHashInt(2, h)
	if h != -1321691492 {
		t.Fatalf("hash('Spark', array(123), 2) = %d, want -1321691492", h)
	}
}

// TestJavaRandom: java.util.Random(1).nextInt(Integer.MAX_VALUE) is the
// coefficient in Spark's count_min_sketch example, 0x5D8D6AB9.
func TestJavaRandom(t *testing.T) {
	if got := newJavaRandom(1).nextInt(1<<31 - 1); got != 0x5D8D6AB9 {
		t.Fatalf("nextInt = %#x, want 0x5d8d6ab9", got)
	}
	r := newJavaRandom(42)
	// new Random(42).nextInt(10) gives 0, 3, 8 in Java.
	for _, want := range []int32{0, 3, 8} {
		if got := r.nextInt(10); got != want {
			t.Fatalf("Random(42).nextInt(10) = %d, want %d", got, want)
		}
	}
}

func TestCountMinSketchSerialization(t *testing.T) {
	s := newCountMinSketch(1, 4, 1)
	for _, x := range []int64{1, 2, 1} {
		s.addLong(x)
	}
	want := "0000000100000000000000030000000100000004000000005D8D6AB90000000000000000000000000000000200000000000000010000000000000000"
	if got := strings.ToUpper(hex.EncodeToString(s.bytes())); got != want {
		t.Fatalf("sketch\n got %s\nwant %s", got, want)
	}
}

// TestJavaNextDouble: new Random(42).nextDouble() is 0.7275636800328681
// in Java; histogram_numeric breaks ties with it.
func TestJavaNextDouble(t *testing.T) {
	if d := newJavaRandom(42).nextDouble(); d != 0.7275636800328681 {
		t.Fatalf("nextDouble = %v, want 0.7275636800328681", d)
	}
}

func TestNumericHistogramMerges(t *testing.T) {
	h := &numericHistogram{nb: 2, prng: newJavaRandom(31183)}
	for _, v := range []float64{0, 1, 2, 10, 10} {
		h.add(v)
	}
	if len(h.bins) != 2 || h.bins[0] != (histBin{1, 3}) || h.bins[1] != (histBin{10, 2}) {
		t.Fatalf("bins = %v", h.bins)
	}
}
