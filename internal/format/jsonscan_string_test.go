package format

import (
	"math/rand"
	"testing"
)

// refScanString is scanString byte by byte, the obvious way.
func refScanString(b []byte, i int) (int, bool, bool) {
	esc := false
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j + 1, esc, true
		case '\\':
			n, err := escapeLen(b, j)
			if err != nil {
				return 0, false, false
			}
			esc = true
			j += n - 1
		}
	}
	return 0, false, false
}

// Strings short and long, escapes anywhere (next to the closing quote
// too), unterminated: the fast scan agrees with the byte-by-byte one.
func TestScanStringAgreesWithBytewise(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte(`ab"\\nu0123 {}`)
	for n := 0; n < 20000; n++ {
		b := []byte{'"'}
		for k := rng.Intn(80); k > 0; k-- {
			if rng.Intn(4) == 0 {
				b = append(b, alphabet[rng.Intn(len(alphabet))])
			} else {
				b = append(b, 'x')
			}
		}
		if rng.Intn(3) > 0 {
			b = append(b, '"')
		}
		end, esc, err := scanString(b, 0)
		wend, wesc, ok := refScanString(b, 0)
		if (err == nil) != ok || ok && (end != wend || esc != wesc) {
			t.Fatalf("%q: got %d %v %v, want %d %v ok=%v", b, end, esc, err, wend, wesc, ok)
		}
	}
}
