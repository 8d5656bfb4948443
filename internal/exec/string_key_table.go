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
//
// A slot's hash is recomputed from its key when the table grows or an
// entry moves, rather than kept per id: at 10M keys a kept hash was 80 MB
// more and a cache miss per entry on every growth.
type stringKeyTable struct {
	s0, s1 uint64 // hash seeds
	seed   maphash.Seed
	slots  []strSlot
	mask   uint64
	arena  []byte
	n      int // ids handed out (keys and reserved ids)
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

func newStringKeyTable() *stringKeyTable { return newStringKeyTableFor(0) }

// newStringKeyTableFor is an empty table with room for keys keys before
// it grows.
func newStringKeyTableFor(keys int) *stringKeyTable {
	initial := 64
	for 4*keys > 3*initial {
		initial *= 2
	}
	return &stringKeyTable{
		s0:    rand.Uint64() | 1,
		s1:    rand.Uint64() | 1,
		seed:  maphash.MakeSeed(),
		slots: make([]strSlot, initial),
		mask:  uint64(initial - 1),
	}
}

func (t *stringKeyTable) len() int { return t.n }

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
	h := t.inlineHash(w0, w1, n)
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

func (t *stringKeyTable) inlineHash(w0, w1 uint64, n int) uint64 {
	return mum(mum(w0^t.s0, w1^t.s1)^uint64(n), 0x9e3779b97f4a7c15)
}

// slotHash is the hash find computed for the key in sl.
func (t *stringKeyTable) slotHash(sl *strSlot) uint64 {
	code := sl.meta >> 32 & 0xff
	if code == longKey {
		return maphash.String(t.seed, bytesView(t.arena[sl.w0:sl.w0+sl.w1]))
	}
	return t.inlineHash(sl.w0, sl.w1, int(code))
}

// probe is where find stopped for an absent key.
type probe struct {
	h, slot, w0, w1 uint64
}

// insert adds s (absent, as find reported with p) and returns its id,
// which is the table's size before the call.
func (t *stringKeyTable) insert(s string, p probe) uint32 {
	id := uint32(t.n)
	sl := strSlot{w0: p.w0, w1: p.w1}
	if len(s) > maxInline {
		sl.meta = p.h>>40<<40 | longKey<<32 | uint64(id+1)
		sl.w0, sl.w1 = uint64(len(t.arena)), uint64(len(s))
		t.arena = append(t.arena, s...)
	} else {
		sl.meta = p.h>>40<<40 | uint64(len(s))<<32 | uint64(id+1)
	}
	t.slots[p.slot] = sl
	t.n++
	if 4*t.n > 3*len(t.slots) {
		t.grow()
	}
	return id
}

// reserve takes the next id for a key kept outside the table (keyTable's
// NULL), so that the table's ids stay the caller's ids; find never
// returns it.
func (t *stringKeyTable) reserve() uint32 {
	id := uint32(t.n)
	t.n++
	return id
}

func (t *stringKeyTable) grow() {
	slots := make([]strSlot, 2*len(t.slots))
	mask := uint64(len(slots) - 1)
	for _, sl := range t.slots {
		if sl.meta == 0 {
			continue
		}
		i := t.slotHash(&sl) & mask
		for slots[i].meta != 0 {
			i = (i + 1) & mask
		}
		slots[i] = sl
	}
	t.slots, t.mask = slots, mask
}

// truncate removes every id >= n; keys are those ids' keys in id order
// (NULL's reserved id has none). Newest first, so the arena shrinks back
// with them.
func (t *stringKeyTable) truncate(n int, keys []string) {
	for j := len(keys) - 1; j >= 0; j-- {
		i, ok := t.slotOf(keys[j])
		if !ok || int(uint32(t.slots[i].meta)-1) < n {
			continue
		}
		if sl := t.slots[i]; sl.meta>>32&0xff == longKey {
			t.arena = t.arena[:sl.w0]
		}
		t.remove(i)
	}
	if n < t.n {
		t.n = n
	}
}

// slotOf is the slot holding s.
func (t *stringKeyTable) slotOf(s string) (uint64, bool) {
	id, _, ok := t.find(s)
	if !ok {
		return 0, false
	}
	for i := t.mask & t.home(s); ; i = (i + 1) & t.mask {
		if uint32(t.slots[i].meta) == id+1 {
			return i, true
		}
	}
}

// home is the hash find computes for s.
func (t *stringKeyTable) home(s string) uint64 {
	if len(s) > maxInline {
		return maphash.String(t.seed, s)
	}
	w0, w1 := words(s)
	return t.inlineHash(w0, w1, len(s))
}

// remove empties slot i by backward-shift deletion: later entries of the
// probe run move up unless their home lies cyclically in (i, j].
func (t *stringKeyTable) remove(i uint64) {
	t.slots[i] = strSlot{}
	for j := (i + 1) & t.mask; t.slots[j].meta != 0; j = (j + 1) & t.mask {
		home := t.slotHash(&t.slots[j]) & t.mask
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
