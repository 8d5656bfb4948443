package functions

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// Spark's bitmap functions: a bitmap is 4096 bytes (32768 bits), bit i in
// byte i/8 at (i%8) from the least significant end.
const bitmapBytes, bitmapBits = 4096, 4096 * 8

var bindBitmapBitPosition = intFunc("bitmap_bit_position", 1, func(v []int64) (int64, bool) {
	if v[0] > 0 {
		return (v[0] - 1) % bitmapBits, true
	}
	return (-v[0]) % bitmapBits, true
})

var bindBitmapBucketNumber = intFunc("bitmap_bucket_number", 1, func(v []int64) (int64, bool) {
	if v[0] > 0 {
		return 1 + (v[0]-1)/bitmapBits, true
	}
	return v[0] / bitmapBits, true
})

var bindBitmapCount = rowFn("bitmap_count", types.BigInt, ps(pBinary), func(v []any) (any, error) {
	n := 0
	for _, b := range v[0].([]byte) {
		n += bits.OnesCount8(b)
	}
	return int64(n), nil
})

// bitmapAgg binds bitmap_construct_agg (from bit positions) and
// bitmap_or_agg / bitmap_and_agg (of bitmaps).
func bitmapAgg(fn string) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		var cast arrow.DataType = binaryType
		if fn == "bitmap_construct_agg" {
			cast = types.BigInt
		}
		return tupleAgg(binaryType, []arrow.DataType{cast}, []bool{true}, func(rows [][]any) (any, error) {
			out := make([]byte, bitmapBytes)
			if fn == "bitmap_and_agg" {
				if len(rows) == 0 {
					return out, nil
				}
				for i := range out {
					out[i] = 0xff
				}
			}
			for _, r := range rows {
				switch fn {
				case "bitmap_construct_agg":
					p := r[0].(int64)
					if p < 0 || p >= bitmapBits {
						return nil, fmt.Errorf("%s: bit position %d out of range", fn, p)
					}
					out[p/8] |= 1 << (p % 8)
				case "bitmap_or_agg":
					for i, b := range r[0].([]byte) {
						if i < bitmapBytes {
							out[i] |= b
						}
					}
				default:
					in := r[0].([]byte)
					for i := range out {
						if i < len(in) {
							out[i] &= in[i]
						} else {
							out[i] = 0
						}
					}
				}
			}
			return out, nil
		}), nil
	}
}
