package format

import (
	"encoding/binary"
	"math/bits"
)

// This file finds string ends in a record without backslashes ("plain"):
// there every string ends at the next quote, so one pass over the record
// marks all its quotes in bitmasks (bit j of word k is byte 64k+j) and
// each string end is then a mask lookup instead of a scan of the string.

const swarLow7 = 0x7f7f7f7f7f7f7f7f

// quoteBits8 returns a bit per byte of x (little-endian): 1 where the byte
// is '"'. The zero-byte test is the exact one (no borrow between bytes).
func quoteBits8(x uint64) uint64 {
	t := x ^ (swarLo * '"')
	z := ^((t&swarLow7 + swarLow7) | t | swarLow7) // high bit of each zero byte
	// Gather the eight high bits into the top byte: byte k's bit goes to
	// bit 56+k and no two partial products meet.
	return ((z >> 7) * 0x0102040810204080) >> 56
}

// quoteMasks returns (in dst's storage) the quote bitmask of b, one word
// per 64 bytes, whether b holds a backslash (then the masks do not say
// where strings end) and whether it holds a byte >= 0x80 (if not, its
// strings need no UTF-8 check).
func quoteMasks(dst []uint64, b []byte) (q []uint64, backslash, high bool) {
	n := (len(b) + 63) >> 6
	if cap(dst) < n {
		dst = make([]uint64, n, n+n/2+4)
	}
	dst = dst[:n]
	full := len(b) >> 6
	bs, hi := quoteBlocks(dst[:full], b[:full<<6])
	if t := len(b) - full<<6; t > 0 {
		// The tail: the mask of the last 64 bytes, shifted down to the
		// tail's bytes (or of a padded copy of a record under 64 bytes).
		var last [1]uint64
		if len(b) >= 64 {
			tb, th := quoteBlocks(last[:], b[len(b)-64:])
			bs, hi = bs || tb, hi || th
			dst[full] = last[0] >> (64 - t)
		} else {
			var pad [64]byte
			copy(pad[:], b)
			bs, hi = quoteBlocks(last[:], pad[:])
			dst[full] = last[0]
		}
	}
	return dst, bs, hi
}

// isASCII reports whether b has no byte >= 0x80.
func isASCII(b []byte) bool {
	var acc uint64
	for ; len(b) >= 8; b = b[8:] {
		acc |= binary.LittleEndian.Uint64(b)
	}
	for _, c := range b {
		acc |= uint64(c)
	}
	return acc&swarHi == 0
}

// quoteBlocksGeneric is quoteBlocks in portable Go: dst[k] is the quote
// mask of b[64k:64k+64] (len(b) is 64 len(dst)).
func quoteBlocksGeneric(dst []uint64, b []byte) {
	for k := range dst {
		w := b[k<<6 : (k+1)<<6 : (k+1)<<6]
		dst[k] = quoteBits8(binary.LittleEndian.Uint64(w[0:])) |
			quoteBits8(binary.LittleEndian.Uint64(w[8:]))<<8 |
			quoteBits8(binary.LittleEndian.Uint64(w[16:]))<<16 |
			quoteBits8(binary.LittleEndian.Uint64(w[24:]))<<24 |
			quoteBits8(binary.LittleEndian.Uint64(w[32:]))<<32 |
			quoteBits8(binary.LittleEndian.Uint64(w[40:]))<<40 |
			quoteBits8(binary.LittleEndian.Uint64(w[48:]))<<48 |
			quoteBits8(binary.LittleEndian.Uint64(w[56:]))<<56
	}
}

// nextQuote returns the offset of the first quote at or after p, or -1.
func nextQuote(q []uint64, p int) int {
	k := p >> 6
	if k < len(q) {
		if m := q[k] >> (p & 63); m != 0 {
			return p + bits.TrailingZeros64(m)
		}
	}
	return nextQuoteFar(q, k+1)
}

func nextQuoteFar(q []uint64, k int) int {
	for ; k < len(q); k++ {
		if q[k] != 0 {
			return k<<6 + bits.TrailingZeros64(q[k])
		}
	}
	return -1
}

// skipPlainNested returns the end of the object or array at b[i] as
// skipValue finds it (brackets balanced by count, strings skipped), or
// -1 where skipValue would fail: unbalanced, unterminated or too deep.
// (Tried and slower on the bench data: finding brackets eight bytes at a
// time and telling those inside strings by the parity of the quotes
// before them; the short nested values there are a few branches each.)
func skipPlainNested(b []byte, q []uint64, i int) int {
	depth := 0
	for j := i; j < len(b); {
		switch b[j] {
		case '"':
			e := nextQuote(q, j+1)
			if e < 0 {
				return -1
			}
			j = e + 1
			continue
		case '{', '[':
			depth++
			if depth > maxJSONDepth {
				return -1
			}
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
		j++
	}
	return -1
}
