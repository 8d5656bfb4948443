package format

import (
	"bytes"
	"math/rand"
	"testing"
)

// Every length around the 64-byte blocks, quotes anywhere (first and
// last byte too): the masks mark exactly the quotes, on amd64 and in the
// portable code alike.
func TestQuoteMasksMarkEveryQuote(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 300; n++ {
		for round := 0; round < 20; round++ {
			b := make([]byte, n)
			for i := range b {
				switch rng.Intn(5) {
				case 0:
					b[i] = '"'
				case 2:
					if rng.Intn(1+round*n) == 0 {
						b[i] = '\\' // now and then only: most records have none
					} else {
						b[i] = 'a'
					}
				case 1:
					b[i] = byte(rng.Intn(128))
					if rng.Intn(1+round*n) == 0 {
						b[i] |= 0x80 // now and then only, as in ASCII records
					}
				default:
					b[i] = 'a'
				}
			}
			q, bs, high := quoteMasks(nil, b)
			if len(q) != (n+63)/64 {
				t.Fatalf("len %d: %d words", n, len(q))
			}
			want := false
			for _, c := range b {
				want = want || c >= 0x80
			}
			if high != want || isASCII(b) == want {
				t.Fatalf("len %d: high %v, isASCII %v, want high %v (%q)", n, high, isASCII(b), want, b)
			}
			if want := bytes.IndexByte(b, '\\') >= 0; bs != want {
				t.Fatalf("len %d: backslash %v, want %v", n, bs, want)
			}
			for i := 0; i < len(q)*64; i++ {
				got := q[i/64]>>(i%64)&1 == 1
				if want := i < n && b[i] == '"'; got != want {
					t.Fatalf("len %d byte %d: marked %v, is %q", n, i, got, b[min(i, n-1)])
				}
			}
			if full := n / 64; full > 0 {
				g := make([]uint64, full)
				quoteBlocksGeneric(g, b[:full*64])
				for k := range g {
					if g[k] != q[k] {
						t.Fatalf("len %d word %d: portable %x, quoteBlocks %x", n, k, g[k], q[k])
					}
				}
			}
			// nextQuote from every offset is the next quote.
			for p := 0; p <= n+1; p++ {
				want := -1
				for j := p; j < n; j++ {
					if b[j] == '"' {
						want = j
						break
					}
				}
				if got := nextQuote(q, p); got != want {
					t.Fatalf("len %d: nextQuote(%d) = %d, want %d", n, p, got, want)
				}
			}
		}
	}
}

// skipPlainNested ends a container where skipValue does, and fails
// where it fails.
func TestSkipPlainNestedAgreesWithSkipValue(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1}`, `["x","y"]`, `{"a":{"b":[1,2,{"c":"]"}]}}`, `["}",  "{", "["]`,
		`{"a":"b"`, `["x`, `[[[`, `[1,2]]`, `{"k":[}`, `[{]}`, `{"a":"b"}, "tail"`,
		`[ 1 , 2 ]`, `{"a":"\u00e9"}`, "[\"\xff\"]", `[YyY_]`,
	} {
		b := []byte(s)
		want, err := skipValue(b, 0)
		if err != nil {
			want = -1
		}
		if got := skipPlainNested(b, masksOf(b), 0); got != want {
			t.Errorf("%s: %d, skipValue %d (%v)", s, got, want, err)
		}
	}
	deep := make([]byte, 0, 2*maxJSONDepth+2)
	for i := 0; i <= maxJSONDepth; i++ {
		deep = append(deep, '[')
	}
	for i := 0; i <= maxJSONDepth; i++ {
		deep = append(deep, ']')
	}
	if got := skipPlainNested(deep, masksOf(deep), 0); got != -1 {
		t.Errorf("nesting %d deep: %d", maxJSONDepth+1, got)
	}
	if got := skipPlainNested(deep[1:len(deep)-1], masksOf(deep[1:len(deep)-1]), 0); got != len(deep)-2 {
		t.Errorf("nesting %d deep: %d", maxJSONDepth, got)
	}
}

func masksOf(b []byte) []uint64 {
	q, _, _ := quoteMasks(nil, b)
	return q
}

// Random containers (strings full of brackets, across 64-byte words),
// whole and cut short: skipPlainNested agrees with skipValue on each.
func TestSkipPlainNestedRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var gen func(b []byte, depth int) []byte
	gen = func(b []byte, depth int) []byte {
		switch k := rng.Intn(6); {
		case depth > 0 && k < 2:
			open, close := byte('['), byte(']')
			if k == 1 {
				open, close = '{', '}'
			}
			b = append(b, open)
			for n := rng.Intn(4); n > 0; n-- {
				if open == '{' {
					b = append(b, `"k":`...)
				}
				b = gen(b, depth-1)
				if n > 1 {
					b = append(b, ',')
				}
			}
			return append(b, close)
		case k < 4:
			b = append(b, '"')
			for n := rng.Intn(90); n > 0; n-- {
				b = append(b, "ab{}[]:, y_Y"[rng.Intn(12)])
			}
			return append(b, '"')
		}
		return append(b, "12"...)
	}
	for n := 0; n < 3000; n++ {
		whole := gen([]byte{'['}, 4)
		whole = append(whole, ']')
		for _, b := range [][]byte{whole, whole[:rng.Intn(len(whole))+1]} {
			want, err := skipValue(b, 0)
			if err != nil {
				want = -1
			}
			if got := skipPlainNested(b, masksOf(b), 0); got != want {
				t.Fatalf("%s: %d, skipValue %d (%v)", b, got, want, err)
			}
		}
	}
}
