package functions

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// count_min_sketch(x, eps, confidence, seed) is Spark's CountMinSketchImpl
// byte for byte: width ceil(2 / eps), depth ceil(-log2(1 - confidence)),
// one hash coefficient per row drawn from java.util.Random(seed), integers
// hashed as (a * x) mod (2^31 - 1) mod width and strings and binaries by
// Spark's Murmur3_x86_32 (its legacy handling of the last 1-3 bytes), and
// the V1 serialization: version, total count, depth, width, coefficients,
// then the table, all big-endian. NULL x are skipped; a group with no rows
// is an empty sketch.
func makeCountMinSketch(args []Arg, distinct bool) (*AggBound, error) {
	t := types.Normalize(args[0].Type)
	if !types.IsInteger(t) && !types.IsString(t) && t.ID() != arrow.BINARY && t.ID() != arrow.NULL {
		return nil, fmt.Errorf("function count_min_sketch expects an integer, STRING or BINARY column, got %s", sqlName(t))
	}
	eps, ok1 := constNumber(args[1])
	conf, ok2 := constNumber(args[2])
	seed, ok3 := toInt64(args[3].Value)
	if !ok1 || !ok2 || !ok3 || !args[3].Const {
		return nil, fmt.Errorf("function count_min_sketch expects constant eps, confidence and seed")
	}
	if eps <= 0 {
		return nil, fmt.Errorf("count_min_sketch: eps must be positive, got %v", eps)
	}
	if conf <= 0 || conf >= 1 {
		return nil, fmt.Errorf("count_min_sketch: confidence must be within (0, 1), got %v", conf)
	}
	width := int32(math.Ceil(2 / eps))
	depth := int32(math.Ceil(-math.Log1p(-conf) / math.Log(2)))
	casts := []arrow.DataType{nil, nil, nil, nil}
	if types.IsInteger(t) {
		casts[0] = types.BigInt
	}
	required := []bool{true, false, false, false}
	return tupleAgg(arrow.BinaryTypes.Binary, casts, required, func(rows [][]any) (any, error) {
		s := newCountMinSketch(depth, width, int32(seed))
		for _, r := range rows {
			switch v := r[0].(type) {
			case int64:
				s.addLong(v)
			case string:
				s.addBytes([]byte(v))
			case []byte:
				s.addBytes(v)
			}
		}
		return s.bytes(), nil
	}), nil
}

// constNumber reads a constant numeric argument as a float64.
func constNumber(a Arg) (float64, bool) {
	if !a.Const {
		return 0, false
	}
	if d, ok := a.Value.(interface{ ToFloat64(int32) float64 }); ok {
		if dt, isDec := a.Type.(*arrow.Decimal128Type); isDec {
			return d.ToFloat64(dt.Scale), true
		}
	}
	if f, ok := asFloat(a.Value); ok {
		return f, true
	}
	return toFloat(a.Value)
}

type countMinSketch struct {
	depth, width int32
	total        int64
	hashA        []int64
	table        []int64 // depth rows of width
}

func newCountMinSketch(depth, width, seed int32) *countMinSketch {
	s := &countMinSketch{depth: depth, width: width, hashA: make([]int64, depth), table: make([]int64, int(depth)*int(width))}
	r := newJavaRandom(int64(seed))
	for i := range s.hashA {
		s.hashA[i] = int64(r.nextInt(math.MaxInt32))
	}
	return s
}

const cmsPrime = 1<<31 - 1

func (s *countMinSketch) addLong(x int64) {
	for i := int32(0); i < s.depth; i++ {
		h := s.hashA[i] * x
		h += h >> 32
		h &= cmsPrime
		s.table[int(i)*int(s.width)+int(int32(h)%s.width)]++
	}
	s.total++
}

func (s *countMinSketch) addBytes(b []byte) {
	h1 := sparkMurmur3Bytes(b, 0)
	h2 := sparkMurmur3Bytes(b, h1)
	for i := int32(0); i < s.depth; i++ {
		v := (h1 + i*h2) % s.width
		if v < 0 {
			v = -v
		}
		s.table[int(i)*int(s.width)+int(v)]++
	}
	s.total++
}

func (s *countMinSketch) bytes() []byte {
	out := make([]byte, 0, 4+8+4+4+8*len(s.hashA)+8*len(s.table))
	out = binary.BigEndian.AppendUint32(out, 1)
	out = binary.BigEndian.AppendUint64(out, uint64(s.total))
	out = binary.BigEndian.AppendUint32(out, uint32(s.depth))
	out = binary.BigEndian.AppendUint32(out, uint32(s.width))
	for _, a := range s.hashA {
		out = binary.BigEndian.AppendUint64(out, uint64(a))
	}
	for _, c := range s.table {
		out = binary.BigEndian.AppendUint64(out, uint64(c))
	}
	return out
}

// javaRandom is java.util.Random's linear congruential generator, so that
// seeds give Spark's coefficients.
type javaRandom struct{ seed int64 }

func newJavaRandom(seed int64) *javaRandom {
	return &javaRandom{seed: (seed ^ 0x5DEECE66D) & (1<<48 - 1)}
}

func (r *javaRandom) next(nbits uint) int32 {
	r.seed = (r.seed*0x5DEECE66D + 0xB) & (1<<48 - 1)
	return int32(uint64(r.seed) >> (48 - nbits))
}

func (r *javaRandom) nextInt(bound int32) int32 {
	x := r.next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32((int64(bound) * int64(x)) >> 31)
	}
	for u := x; ; u = r.next(31) {
		x = u % bound
		if u-x+m >= 0 {
			return x
		}
	}
}

// sparkMurmur3Bytes is Spark's Murmur3_x86_32.hashUnsafeBytes: 4-byte
// little-endian words, then each remaining (signed) byte mixed as a word
// of its own, then the finalizer over the length.
func sparkMurmur3Bytes(b []byte, seed int32) int32 {
	h := uint32(seed)
	n := len(b) - len(b)%4
	for i := 0; i < n; i += 4 {
		h = murmurMixH1(h, murmurMixK1(binary.LittleEndian.Uint32(b[i:])))
	}
	for i := n; i < len(b); i++ {
		h = murmurMixH1(h, murmurMixK1(uint32(int32(int8(b[i])))))
	}
	h ^= uint32(len(b))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int32(h)
}

func murmurMixK1(k uint32) uint32 {
	k *= 0xcc9e2d51
	k = bits.RotateLeft32(k, 15)
	return k * 0x1b873593
}

func murmurMixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}
