package format

// quoteBlocks sets dst[k] to the quote mask of b[64k:64k+64] (len(b) is
// 64 len(dst)) and reports whether b holds a backslash and whether it
// holds a byte >= 0x80 (so is not all ASCII). SSE2 (every
// amd64 has it): 16 bytes compared per instruction, a mask word per 64
// bytes in about 30 instructions.
//
//go:noescape
func quoteBlocks(dst []uint64, b []byte) (backslash, high bool)
