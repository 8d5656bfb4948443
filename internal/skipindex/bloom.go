package skipindex

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"

	"github.com/cespare/xxhash/v2"

	"sluice/internal/connector"
)

// Bloom is a bloom filter over normalized values: k bit positions per
// value, each a remix of the value's 64-bit hash.
type Bloom struct {
	k    uint32
	bits []uint64
}

var _ connector.MembershipFilter = (*Bloom)(nil)

// NewBloom sizes a filter for n distinct values at false positive
// probability fpp.
func NewBloom(n int, fpp float64) *Bloom {
	if n < 1 {
		n = 1
	}
	m := math.Ceil(-float64(n) * math.Log(fpp) / (math.Ln2 * math.Ln2))
	words := int(math.Ceil(m / 64))
	if words < 1 {
		words = 1
	}
	k := uint32(math.Round(m / float64(n) * math.Ln2))
	if k < 1 {
		k = 1
	}
	return &Bloom{k: k, bits: make([]uint64, words)}
}

func hashValue(v any) uint64 { return xxhash.Sum64String(encodeValue(v)) }

func (b *Bloom) addHash(h uint64) {
	m := uint64(len(b.bits)) * 64
	for i := uint64(0); i < uint64(b.k); i++ {
		p := probe(h, i) % m
		b.bits[p/64] |= 1 << (p % 64)
	}
}

// probe is the i-th bit position's hash: splitmix64 of h and i, so no
// value's positions collapse onto one bit (plain double hashing does when
// its step is a multiple of the size).
func probe(h, i uint64) uint64 {
	z := h + (i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// MightContain reports whether v may have been added.
func (b *Bloom) MightContain(v any) bool {
	h := hashValue(v)
	m := uint64(len(b.bits)) * 64
	for i := uint64(0); i < uint64(b.k); i++ {
		p := probe(h, i) % m
		if b.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

// encode is base64 of k, then the words, little endian.
func (b *Bloom) encode() string {
	buf := make([]byte, 4+8*len(b.bits))
	binary.LittleEndian.PutUint32(buf, b.k)
	for i, w := range b.bits {
		binary.LittleEndian.PutUint64(buf[4+8*i:], w)
	}
	return base64.StdEncoding.EncodeToString(buf)
}

func decodeBloom(s string) (*Bloom, error) {
	buf, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(buf) < 12 || (len(buf)-4)%8 != 0 {
		return nil, errors.New("corrupt bloom filter")
	}
	b := &Bloom{k: binary.LittleEndian.Uint32(buf), bits: make([]uint64, (len(buf)-4)/8)}
	for i := range b.bits {
		b.bits[i] = binary.LittleEndian.Uint64(buf[4+8*i:])
	}
	if b.k == 0 || b.k > 64 {
		return nil, errors.New("corrupt bloom filter")
	}
	return b, nil
}
