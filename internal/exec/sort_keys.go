package exec

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// normalizedOrder returns the stable sorted order of the n rows of the
// evaluated key columns cols, or ok false when some key has no
// fixed-width code (DECIMAL, nested types): the caller then compares
// rows one by one.
//
// Each key becomes an unsigned code per row that sorts like the key
// under its direction and NULL placement (integers and floats by their
// bits, strings by their rank among the column's distinct values); the
// codes are shifted to start at 0 and packed, most significant key
// first, into as few 64-bit words as their value ranges allow (W1's
// client, timestamp and path fit one). The words are then radix sorted
// least significant digit first, which is stable, so rows with equal
// keys keep their arrival order without a tie-break, and no comparison
// goes through a function value.
func normalizedOrder(keys []SortKey, cols []arrow.Array, n int) ([]int32, bool) {
	for k := range keys {
		if !hasCodes(cols[k]) {
			return nil, false
		}
	}
	var p packer
	for k, key := range keys {
		c, span := keyCodes(cols[k], key.Desc, key.NullsFirst)
		p.add(c, span)
	}
	return radixOrder(p.finish(), n), true
}

// normalizedScratch is the bytes per row normalizedOrder allocates
// beyond its result, at most: one key's codes, one packed word (or two
// when the keys need more than 64 bits) and two (key, row) arrays.
const normalizedScratch = 8 + 16 + 2*16

// keyCodes encodes one key column: codes[i] in [0, span], ordered like
// the rows under desc and nullsFirst (NULLs equal to each other).
func keyCodes(a arrow.Array, desc, nullsFirst bool) ([]uint64, uint64) {
	n := a.Len()
	raw := rawCodes(a)
	lo, hi := uint64(math.MaxUint64), uint64(0)
	hasNull := a.NullN() > 0
	for i, v := range raw {
		if hasNull && a.IsNull(i) {
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo > hi { // every row NULL
		lo, hi = 0, 0
	}
	span := hi - lo
	shift := uint64(0)
	if hasNull && nullsFirst {
		shift = 1
	}
	for i, v := range raw {
		c := v - lo
		if desc {
			c = span - c
		}
		raw[i] = c + shift
	}
	if hasNull {
		null := uint64(0)
		if !nullsFirst {
			null = span + 1
		}
		for i := 0; i < n; i++ {
			if a.IsNull(i) {
				raw[i] = null
			}
		}
		span++
	}
	return raw, span
}

// hasCodes reports whether rawCodes can encode a's type.
func hasCodes(a arrow.Array) bool {
	switch a.(type) {
	case *array.String, *array.LargeString, *array.Binary, *array.Float64, *array.Float32, *array.Uint64, *array.Null:
		return true
	}
	return intLike(a.DataType())
}

// rawCodes returns a fresh slice of ascending order-preserving codes for
// a's rows (values under NULL slots are arbitrary); a's type is one
// hasCodes accepts.
func rawCodes(a arrow.Array) []uint64 {
	n := a.Len()
	switch v := a.(type) {
	case *array.String:
		return stringRanks(n, v.Value)
	case *array.LargeString:
		return stringRanks(n, v.Value)
	case *array.Binary:
		return stringRanks(n, func(i int) string { return unsafeString(v.Value(i)) })
	case *array.Float64:
		out := make([]uint64, n)
		for i, x := range v.Float64Values() {
			out[i] = floatCode(x)
		}
		return out
	case *array.Float32:
		out := make([]uint64, n)
		for i, x := range v.Float32Values() {
			out[i] = floatCode(float64(x))
		}
		return out
	case *array.Uint64:
		return slices.Clone(v.Uint64Values())
	case *array.Null:
		return make([]uint64, n)
	}
	out := make([]uint64, n)
	for i, x := range int64s(a, nil) {
		out[i] = uint64(x) ^ (1 << 63)
	}
	return out
}

// floatCode orders like functions.FloatOrder: -0 equals 0 and NaN is
// above every number.
func floatCode(x float64) uint64 {
	switch {
	case x != x:
		x = math.NaN()
	case x == 0:
		x = 0
	}
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// stringRanks codes each row by its value's rank among the distinct
// values: one map probe per row and a sort of the distinct values,
// instead of a string comparison at every step of the sort.
func stringRanks(n int, value func(int) string) []uint64 {
	ids := make(map[string]uint32)
	out := make([]uint64, n)
	var distinct []string
	for i := 0; i < n; i++ {
		s := value(i)
		id, ok := ids[s]
		if !ok {
			id = uint32(len(distinct))
			ids[s] = id
			distinct = append(distinct, s)
		}
		out[i] = uint64(id)
	}
	order := make([]uint32, len(distinct))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(distinct[a], distinct[b]) })
	rank := make([]uint64, len(distinct))
	for r, id := range order {
		rank[id] = uint64(r)
	}
	for i, id := range out {
		out[i] = rank[id]
	}
	return out
}

// packer concatenates keys' codes, each in bits.Len64(span) bits, into
// 64-bit words, most significant key first; a key never straddles two
// words. A key's codes can be dropped once added.
type packer struct {
	words [][]uint64 // one slice per word, most significant first
	free  int        // bits left in the last word
}

func (p *packer) add(codes []uint64, span uint64) {
	width := bits.Len64(span)
	if width == 0 {
		return // one value: orders nothing
	}
	if width == 64 { // a word of its own, as it is
		p.words = append(p.words, codes)
		p.free = 0
		return
	}
	if width > p.free {
		p.words = append(p.words, make([]uint64, len(codes)))
		p.free = 64
	}
	p.free -= width
	w := p.words[len(p.words)-1]
	for i, v := range codes {
		w[i] |= v << p.free
	}
}

// finish returns the words, the last one's used bits shifted to the
// bottom so the radix passes skip its empty low digits.
func (p *packer) finish() [][]uint64 {
	if p.free > 0 && len(p.words) > 0 {
		w := p.words[len(p.words)-1]
		for i := range w {
			w[i] >>= p.free
		}
	}
	return p.words
}

// radixRows is the size under which a comparison sort of (key, row)
// pairs is cheaper than 256-bucket histograms.
const radixRows = 1024

type keyedRow struct {
	k uint64
	i uint32
}

// radixOrder sorts row numbers 0..n-1 by words (most significant
// first), stably.
func radixOrder(words [][]uint64, n int) []int32 {
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	if len(words) == 0 {
		return idx
	}
	a, b := make([]keyedRow, n), make([]keyedRow, n)
	for w := len(words) - 1; w >= 0; w-- {
		key := words[w]
		for i, r := range idx {
			a[i] = keyedRow{key[r], uint32(r)}
		}
		sortKeyedRows(a, b)
		for i := range a {
			idx[i] = int32(a[i].i)
		}
	}
	return idx
}

// sortKeyedRows sorts a stably by k (b is scratch of the same length).
// Large inputs are sorted as two halves on two goroutines and merged.
func sortKeyedRows(a, b []keyedRow) {
	n := len(a)
	if n < radixRows {
		slices.SortStableFunc(a, func(x, y keyedRow) int {
			switch {
			case x.k < y.k:
				return -1
			case x.k > y.k:
				return 1
			}
			return 0
		})
		return
	}
	if n < 1<<16 {
		radixSort(a, b)
		return
	}
	h := n / 2
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		radixSort(a[:h], b[:h])
	}()
	radixSort(a[h:], b[h:])
	wg.Wait()
	// Merge the halves into b, ties to the first half (stable), then back.
	i, j, o := 0, h, 0
	for i < h && j < n {
		if a[j].k < a[i].k {
			b[o] = a[j]
			j++
		} else {
			b[o] = a[i]
			i++
		}
		o++
	}
	o += copy(b[o:], a[i:h])
	copy(b[o:], a[j:n])
	copy(a, b)
}

// radixSort sorts a by k, LSD with 8-bit digits, skipping digits above
// the largest key and digits every row shares; the result ends in a.
func radixSort(a, b []keyedRow) {
	var top uint64
	for _, r := range a {
		top |= r.k
	}
	src, dst := a, b
	for shift := uint(0); shift < 64 && top>>shift != 0; shift += 8 {
		var count [256]int
		for _, r := range src {
			count[byte(r.k>>shift)]++
		}
		if count[byte(src[0].k>>shift)] == len(src) {
			continue
		}
		pos := 0
		for d := range count {
			c := count[d]
			count[d] = pos
			pos += c
		}
		for _, r := range src {
			d := byte(r.k >> shift)
			dst[count[d]] = r
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}
