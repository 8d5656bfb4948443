//go:build !amd64

package format

import "bytes"

// quoteBlocks sets dst[k] to the quote mask of b[64k:64k+64] (len(b) is
// 64 len(dst)) and reports whether b holds a backslash and whether it
// holds a byte >= 0x80.
func quoteBlocks(dst []uint64, b []byte) (backslash, high bool) {
	quoteBlocksGeneric(dst, b)
	return bytes.IndexByte(b, '\\') >= 0, !isASCII(b)
}
