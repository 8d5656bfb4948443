package exec

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
	"unsafe"
)

// stringKeyTable maps distinct strings to dense ids 0, 1, 2, ... in
// first-seen order. It is keyTable's single STRING/BINARY key path.
//
// Open addressing with linear probing over 24-byte slots: a key of up to
// 16 bytes lives in its slot as two words (so a hit costs one cache line
// and no byte comparison, which is the common GROUP BY shape: IPs, codes,
// short names); a longer key is copied into one byte arena and the slot
// holds its offset. No string is allocated per key. Removal is only of
// the newest ids (truncate), which is all keyTable.forget needs.
type stringKeyTable struct {
	s0, s1 uint64 // hash seeds
	seed   maphash.Seed
	slots  []strSlot
	mask   uint64
	arena  []byte
	hash   []uint64 // hash of key id: its home on growth and removal
}

// strSlot is one table entry. meta is 0 when empty, else the hash's top
// 24 bits <<40 | length code <<32 | id+1, where the length code is the
// key's length (0..16, key inline in w0,w1) or longKey (key in
// arena[w0:w0+w1]).
type strSlot struct {
	meta   uint64
	w0, w1 uint64
}

const (
	maxInline = 16
	longKey   = 0xff
)

func newStringKeyTable() *stringKeyTable {
	const initial = 64
	return &stringKeyTable{
		s0:    rand.Uint64() | 1,
		s1:    rand.Uint64() | 1,
		seed:  maphash.MakeSeed(),
		slots: make([]strSlot, initial),
		mask:  initial - 1,
	}
}

func (t *stringKeyTable) len() int { return len(t.hash) }

// words packs a key of at most 16 bytes into two words that, together
// with its length, determine it (overlapping loads, as in wyhash).
func words(s string) (w0, w1 uint64) {
	n := len(s)
	b := unsafe.Slice(unsafe.StringData(s), n)
	switch {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32, 0
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
}

func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// find returns the id of s or, when absent, false and what insert needs.
func (t *stringKeyTable) find(s string) (id uint32, p probe, ok bool) {
	n := len(s)
	if n > maxInline {
		h := maphash.String(t.seed, s)
		tag := h>>40<<40 | longKey<<32
		for i := h & t.mask; ; i = (i + 1) & t.mask {
			sl := &t.slots[i]
			if sl.meta == 0 {
				return 0, probe{h: h, slot: i}, false
			}
			if sl.meta&^0xffffffff == tag && sl.w1 == uint64(n) && string(t.arena[sl.w0:sl.w0+sl.w1]) == s {
				return uint32(sl.meta) - 1, probe{}, true
			}
		}
	}
	w0, w1 := words(s)
	h := mum(mum(w0^t.s0, w1^t.s1)^uint64(n), 0x9e3779b97f4a7c15)
	tag := h>>40<<40 | uint64(n)<<32
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		sl := &t.slots[i]
		if sl.meta == 0 {
			return 0, probe{h: h, slot: i, w0: w0, w1: w1}, false
		}
		if sl.meta&^0xffffffff == tag && sl.w0 == w0 && sl.w1 == w1 {
			return uint32(sl.meta) - 1, probe{}, true
		}
	}
}

// probe is where find stopped for an absent key.
type probe struct {
	h, slot, w0, w1 uint64
}

// insert adds s (absent, as find reported with p) and returns its id,
// which is the table's size before the call.
func (t *stringKeyTable) insert(s string, p probe) uint32 {
	id := uint32(len(t.hash))
	sl := strSlot{w0: p.w0, w1: p.w1}
	if len(s) > maxInline {
		sl.meta = p.h>>40<<40 | longKey<<32 | uint64(id+1)
		sl.w0, sl.w1 = uint64(len(t.arena)), uint64(len(s))
		t.arena = append(t.arena, s...)
	} else {
		sl.meta = p.h>>40<<40 | uint64(len(s))<<32 | uint64(id+1)
	}
	t.slots[p.slot] = sl
	t.hash = append(t.hash, p.h)
	if 4*len(t.hash) > 3*len(t.slots) {
		t.grow()
	}
	return id
}

// reserve takes the next id for a key kept outside the table (keyTable's
// NULL), so that the table's ids stay the caller's ids; find never
// returns it.
func (t *stringKeyTable) reserve() uint32 {
	id := uint32(len(t.hash))
	t.hash = append(t.hash, 0)
	return id
}

func (t *stringKeyTable) grow() {
	slots := make([]strSlot, 2*len(t.slots))
	mask := uint64(len(slots) - 1)
	for _, sl := range t.slots {
		if sl.meta == 0 {
			continue
		}
		i := t.hash[uint32(sl.meta)-1] & mask
		for slots[i].meta != 0 {
			i = (i + 1) & mask
		}
		slots[i] = sl
	}
	t.slots, t.mask = slots, mask
}

// truncate removes every id >= n, newest first, so that the arena can
// shrink back with them; reserved is the id reserve handed out (or -1).
func (t *stringKeyTable) truncate(n int, reserved int64) {
	for id := len(t.hash) - 1; id >= n; id-- {
		if int64(id) == reserved {
			continue
		}
		i := t.hash[id] & t.mask
		for uint32(t.slots[i].meta) != uint32(id+1) {
			i = (i + 1) & t.mask
		}
		if sl := t.slots[i]; sl.meta>>32&0xff == longKey {
			t.arena = t.arena[:sl.w0]
		}
		t.remove(i)
	}
	if n < len(t.hash) {
		t.hash = t.hash[:n]
	}
}

// remove empties slot i by backward-shift deletion: later entries of the
// probe run move up unless their home lies cyclically in (i, j].
func (t *stringKeyTable) remove(i uint64) {
	t.slots[i] = strSlot{}
	for j := (i + 1) & t.mask; t.slots[j].meta != 0; j = (j + 1) & t.mask {
		home := t.hash[uint32(t.slots[j].meta)-1] & t.mask
		var stays bool
		if i <= j {
			stays = i < home && home <= j
		} else {
			stays = i < home || home <= j
		}
		if stays {
			continue
		}
		t.slots[i], t.slots[j] = t.slots[j], strSlot{}
		i = j
	}
}
