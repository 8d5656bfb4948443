//go:build !amd64

package format

// quoteBlocks sets dst[k] to the quote mask of b[64k:64k+64]; len(b) is
// 64 len(dst).
func quoteBlocks(dst []uint64, b []byte) { quoteBlocksGeneric(dst, b) }
