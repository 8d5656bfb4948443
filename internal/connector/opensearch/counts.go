package opensearch

// rowCounts counts how often each 64-bit row hash came up in an epoch:
// an open-addressing table with linear probing, 16 bytes a slot and at
// most 3/4 full. The hashes are xxhash already, so their low bits index
// the table as they are. It replaces a map[uint64]uint32 whose two
// lookups a row (read, then write) were a quarter of the encoder's CPU.
type rowCounts struct {
	slots []countSlot
	n     int    // slots in use
	zero  uint32 // the count of hash 0, which marks an empty slot
}

type countSlot struct {
	h uint64
	n uint32
}

// next returns how many times h came before and counts this one.
func (c *rowCounts) next(h uint64) uint32 {
	if h == 0 {
		c.zero++
		return c.zero - 1
	}
	if 4*(c.n+1) > 3*len(c.slots) {
		c.grow()
	}
	mask := uint64(len(c.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &c.slots[i]
		if s.h == h {
			s.n++
			return s.n - 1
		}
		if s.h == 0 {
			s.h, s.n = h, 1
			c.n++
			return 0
		}
	}
}

func (c *rowCounts) grow() {
	old := c.slots
	c.slots = make([]countSlot, max(1024, 2*len(old)))
	mask := uint64(len(c.slots) - 1)
	for _, s := range old {
		if s.h == 0 {
			continue
		}
		i := s.h & mask
		for c.slots[i].h != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = s
	}
}

// reset forgets every count, keeping the table's size for the next epoch.
func (c *rowCounts) reset() {
	clear(c.slots)
	c.n, c.zero = 0, 0
}
