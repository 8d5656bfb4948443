package functions

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cespare/xxhash/v2"

	"sluice/internal/types"
)

// Digest functions hash the argument's UTF-8 text (numbers are cast to
// STRING first, as in Spark) and return lower-case hex.
func bindDigest(fn string, h func() hash.Hash) Binder {
	return simple(fn, types.String, func([]Arg) Kernel { return digestKernel(h) }, pString)
}

func digestKernel(h func() hash.Hash) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s := args[0].(*array.String)
		hh := h()
		var sum []byte
		return strResult(n, args[:1], false, func(i int) (string, bool) {
			hh.Reset()
			hh.Write([]byte(s.Value(i)))
			sum = hh.Sum(sum[:0])
			return hex.EncodeToString(sum), true
		}), nil
	}
}

// sha2(x, bits): bits 224, 256 (or 0), 384, 512; NULL for other sizes.
func bindSha2(args []Arg) (*Bound, error) {
	casts, err := coerceArgs("sha2", args, pString, pInt)
	if err != nil {
		return nil, err
	}
	var h func() hash.Hash
	if args[1].Const {
		bits, _ := toInt64(args[1].Value)
		switch bits {
		case 0, 256:
			h = sha256.New
		case 224:
			h = sha256.New224
		case 384:
			h = sha512.New384
		case 512:
			h = sha512.New
		default:
			return &Bound{Type: types.String, Casts: casts, Eval: nullKernel(types.String)}, nil
		}
	} else {
		return nil, fmt.Errorf("function sha2 expects a constant bit length")
	}
	return &Bound{Type: types.String, Casts: casts, Eval: digestKernel(h)}, nil
}

// crc32(x) -> BIGINT, the IEEE checksum of the text.
var bindCrc32 = simple("crc32", types.BigInt, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s := args[0].(*array.String)
		return fixedResult(types.BigInt, n, args, func(i int) (int64, bool) {
			return int64(crc32.ChecksumIEEE([]byte(s.Value(i)))), true
		}), nil
	}
}, pString)

// xxhash64(a, ...) -> BIGINT and hash(a, ...) -> INT hash the values of
// all arguments (NULLs are skipped, so they never make the hash NULL).
// hash is xxhash64 folded to 32 bits, not Spark's murmur3: values differ
// from Spark's, distribution does not.
func bindXXHash(bits32 bool) Binder {
	rt := types.BigInt
	if bits32 {
		rt = types.Int
	}
	return func(args []Arg) (*Bound, error) {
		return &Bound{Type: rt, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			var buf []byte
			one := make([]arrow.Array, 1)
			h64 := make([]int64, n)
			for i := 0; i < n; i++ {
				buf = buf[:0]
				for _, a := range args {
					one[0] = a
					if k, ok := rowKey(one, i, buf[len(buf):]); ok {
						buf = append(buf, k...)
					}
				}
				h64[i] = int64(xxhash.Sum64(buf))
			}
			if bits32 {
				out := make([]int32, n)
				for i, h := range h64 {
					out[i] = int32(h ^ h>>32)
				}
				return fixedArray(types.Int, out, nil), nil
			}
			return fixedArray(types.BigInt, h64, nil), nil
		}}, nil
	}
}

var (
	bindMd5  = bindDigest("md5", md5.New)
	bindSha1 = bindDigest("sha1", sha1.New)
)
