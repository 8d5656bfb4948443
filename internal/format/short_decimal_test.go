package format

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// The fast path gives strconv's double, bit for bit, or declines.
func TestShortDecimalIsStrconvs(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cases := []string{"0", "-0", "0.1", "10.671", "-3.25", "123456789012345", "1234567.89012345", "0.000000000000001",
		"9007199254740993", "1.", ".5", "+5", "1e5", "", "-", "1.2.3", "007", "0.30000000000000004", "999999999999999.9"}
	for n := 0; n < 20000; n++ {
		w := rng.Int63n(1 << uint(rng.Intn(55)))
		s := strconv.FormatInt(w, 10)
		if k := rng.Intn(len(s) + 1); k > 0 && k < len(s) {
			s = s[:k] + "." + s[k:]
		}
		if rng.Intn(2) == 0 {
			s = "-" + s
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		got, ok := shortDecimal([]byte(s))
		if !ok {
			continue
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%q: %v, strconv says %v (%v)", s, got, want, err)
		}
	}
	if _, ok := shortDecimal([]byte("10.671")); !ok {
		t.Fatal("10.671 should take the fast path")
	}
}
