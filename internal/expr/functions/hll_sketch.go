package functions

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// Spark's HLL sketch functions (hll_sketch_agg, hll_union_agg, hll_union,
// hll_sketch_estimate) with the same contract: lgConfigK in [4, 21]
// (default 12), sketches of INT/BIGINT, STRING or BINARY values, unions
// that refuse different lgConfigK unless allowed (then the smaller wins).
// The sketch is Sluice's HyperLogLog (agg_hll.go: exact while small,
// 2^lgConfigK one-byte registers past that), not Apache DataSketches' HLL
// that Spark serializes, so a sketch made by Spark cannot be read here nor
// the other way round; estimates agree within HLL's error, and exactly
// for small counts. The binary form is "SLHL", a version byte,
// lgConfigK, then either 0 and the distinct hashes (uint32 count, uint64
// little-endian each) or 1 and the 2^lgConfigK registers.

const (
	hllSketchMagic   = "SLHL"
	hllSketchVersion = 1
	hllMinLgK        = 4
	hllMaxLgK        = 21
	hllDefaultLgK    = 12
)

// encodeHLL serializes h.
func encodeHLL(h *HLL) []byte {
	out := append([]byte(hllSketchMagic), hllSketchVersion, h.P)
	if h.Regs == nil {
		out = append(out, 0)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(h.Sparse)))
		for _, x := range h.Sparse {
			out = binary.LittleEndian.AppendUint64(out, x)
		}
		return out
	}
	return append(append(out, 1), h.Regs...)
}

// decodeHLL reads a sketch encodeHLL wrote.
func decodeHLL(b []byte) (*HLL, error) {
	bad := func(why string) error {
		return fmt.Errorf("not a Sluice HLL sketch (%s); sketches come from hll_sketch_agg", why)
	}
	if len(b) < 7 || string(b[:4]) != hllSketchMagic {
		return nil, bad("bad header")
	}
	if b[4] != hllSketchVersion {
		return nil, bad(fmt.Sprintf("version %d", b[4]))
	}
	p := b[5]
	if p < hllMinLgK || p > hllMaxLgK {
		return nil, bad(fmt.Sprintf("lgConfigK %d", p))
	}
	h := &HLL{P: p}
	rest := b[7:]
	switch b[6] {
	case 0:
		if len(rest) < 4 {
			return nil, bad("truncated")
		}
		n := binary.LittleEndian.Uint32(rest)
		rest = rest[4:]
		if uint64(len(rest)) != 8*uint64(n) {
			return nil, bad("truncated")
		}
		for i := 0; i < int(n); i++ {
			h.Add(binary.LittleEndian.Uint64(rest[8*i:]))
		}
	case 1:
		if len(rest) != 1<<p {
			return nil, bad("truncated")
		}
		h.Regs = append([]uint8(nil), rest...)
	default:
		return nil, bad("unknown mode")
	}
	return h, nil
}

// downsample gives h with p registers (p <= h.P): a register's extra
// index bits become the leading bits of the rest of its hash.
func (h *HLL) downsample(p uint8) *HLL {
	if p >= h.P {
		return h
	}
	out := &HLL{P: p}
	if h.Regs == nil {
		for _, x := range h.Sparse {
			out.Add(x)
		}
		return out
	}
	out.Regs = make([]uint8, 1<<p)
	d := h.P - p
	for idx, r := range h.Regs {
		if r == 0 {
			continue
		}
		low := uint64(idx) & (1<<d - 1)
		rank := r + d
		if low != 0 {
			// The leading zeros of the d bits, then the first one.
			rank = uint8(d) - uint8(bitLen(low)) + 1
		}
		if ni := idx >> d; rank > out.Regs[ni] {
			out.Regs[ni] = rank
		}
	}
	return out
}

func bitLen(x uint64) int {
	n := 0
	for ; x != 0; x >>= 1 {
		n++
	}
	return n
}

// unionHLL merges b into a, refusing different lgConfigK unless allowed.
func unionHLL(a, b *HLL, allowDifferent bool) (*HLL, error) {
	if a.P != b.P {
		if !allowDifferent {
			return nil, fmt.Errorf("sketches have different lgConfigK values %d and %d; set allowDifferentLgConfigK to true to union them", a.P, b.P)
		}
		p := min(a.P, b.P)
		a, b = a.downsample(p), b.downsample(p)
	}
	out := &HLL{P: a.P}
	out.Merge(a)
	out.Merge(b)
	return out, nil
}

// hllLgK reads hll_sketch_agg's optional lgConfigK.
func hllLgK(args []Arg) (uint8, error) {
	if len(args) < 2 {
		return hllDefaultLgK, nil
	}
	k, ok := toInt64(args[1].Value)
	if !args[1].Const || !ok {
		return 0, fmt.Errorf("hll_sketch_agg: lgConfigK must be a constant integer")
	}
	if k < hllMinLgK || k > hllMaxLgK {
		return 0, fmt.Errorf("hll_sketch_agg: lgConfigK must be between %d and %d, got %d", hllMinLgK, hllMaxLgK, k)
	}
	return uint8(k), nil
}

// hll_sketch_agg(x[, lgConfigK]): integers hash as BIGINT so that INT
// and BIGINT sketches of the same numbers union, as in Spark.
func makeHLLSketchAgg(args []Arg, distinct bool) (*AggBound, error) {
	t := types.Normalize(args[0].Type)
	casts := make([]arrow.DataType, len(args))
	switch {
	case types.IsInteger(t):
		casts[0] = types.BigInt
	case types.IsString(t), t.ID() == arrow.BINARY, t.ID() == arrow.NULL:
	default:
		return nil, fmt.Errorf("function hll_sketch_agg expects INT, BIGINT, STRING or BINARY, got %s", sqlName(t))
	}
	p, err := hllLgK(args)
	if err != nil {
		return nil, err
	}
	return &AggBound{Type: binaryType, Casts: casts, New: func() Accumulator {
		return &hllSketchAcc{hllAcc{p: p}}
	}}, nil
}

// hllSketchAcc is approx_count_distinct's accumulator answering the
// sketch itself.
type hllSketchAcc struct{ hllAcc }

var _ Accumulator = (*hllSketchAcc)(nil)

func (a *hllSketchAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*hllSketchAcc)
	if !ok {
		return mergeTypeError(a, other)
	}
	return a.hllAcc.Merge(&o.hllAcc, mapping)
}

func (a *hllSketchAcc) Result(n int) (arrow.Array, error) {
	b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer b.Release()
	for g := 0; g < n; g++ {
		h := &HLL{P: a.p}
		if g < len(a.gs) && a.gs[g] != nil {
			h = a.gs[g]
		}
		b.Append(encodeHLL(h))
	}
	return b.NewArray(), nil
}

// hll_union_agg(sketch[, allowDifferentLgConfigK]): NULL sketches are
// skipped; a group of none is NULL.
func makeHLLUnionAgg(args []Arg, distinct bool) (*AggBound, error) {
	if t := types.Normalize(args[0].Type); t.ID() != arrow.BINARY && t.ID() != arrow.NULL {
		return nil, fmt.Errorf("function hll_union_agg expects a BINARY sketch, got %s", sqlName(t))
	}
	allow, err := constFlag("hll_union_agg", args, 1)
	if err != nil {
		return nil, err
	}
	required := make([]bool, len(args))
	required[0] = true
	return tupleAgg(binaryType, make([]arrow.DataType, len(args)), required, func(rows [][]any) (any, error) {
		var acc *HLL
		for _, r := range rows {
			h, err := decodeHLL(r[0].([]byte))
			if err != nil {
				return nil, fmt.Errorf("hll_union_agg: %w", err)
			}
			if acc == nil {
				acc = h
				continue
			}
			if acc, err = unionHLL(acc, h, allow); err != nil {
				return nil, fmt.Errorf("hll_union_agg: %w", err)
			}
		}
		if acc == nil {
			return nil, nil
		}
		return encodeHLL(acc), nil
	}), nil
}

// pBool takes BOOLEAN.
var pBool = param{"BOOLEAN", func(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.NULL || t.ID() == arrow.BOOL {
		return types.Boolean
	}
	return nil
}}

var bindHLLSketchEstimate = rowFn("hll_sketch_estimate", types.BigInt, ps(pBinary), func(v []any) (any, error) {
	h, err := decodeHLL(v[0].([]byte))
	if err != nil {
		return nil, err
	}
	return h.Estimate(), nil
})

var bindHLLUnion = rowFn("hll_union", binaryType, ps(pBinary, pBinary, pBool), func(v []any) (any, error) {
	a, err := decodeHLL(v[0].([]byte))
	if err != nil {
		return nil, err
	}
	b, err := decodeHLL(v[1].([]byte))
	if err != nil {
		return nil, err
	}
	allow := len(v) > 2 && v[2].(bool)
	u, err := unionHLL(a, b, allow)
	if err != nil {
		return nil, err
	}
	return encodeHLL(u), nil
})
