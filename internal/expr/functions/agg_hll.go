package functions

import (
	"fmt"
	"io"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cespare/xxhash/v2"

	"sluice/internal/types"
)

// approx_count_distinct(x[, rsd]) is a HyperLogLog sketch per group over
// xxhash64 of the value. Small groups stay exact: hashes are kept in a
// sparse list until it outgrows the registers' size. The default
// precision (2^12 registers, 4 KiB per large group) gives a standard
// error of about 1.6%; rsd picks the precision as Spark does.
func makeApproxCountDistinct(args []Arg, distinct bool) (*AggBound, error) {
	p := uint8(12)
	if len(args) == 2 {
		rsd, ok := args[1].Value.(float64)
		if !args[1].Const || !ok {
			if d, isDec := args[1].Value.(interface{ ToFloat64(int32) float64 }); isDec && args[1].Const {
				rsd, ok = d.ToFloat64(args[1].Type.(*arrow.Decimal128Type).Scale), true
			}
		}
		if !ok || rsd <= 0 || rsd >= 1 {
			return nil, fmt.Errorf("approx_count_distinct: the relative standard deviation must be a constant between 0 and 1")
		}
		p = uint8(min(16, max(4, math.Ceil(2*math.Log2(1.106/rsd)))))
	}
	casts := []arrow.DataType{nil, nil}[:len(args)]
	return &AggBound{Type: types.BigInt, Casts: casts, New: func() Accumulator { return &hllAcc{p: p} }}, nil
}

// HLL is one HyperLogLog sketch with 2^p registers.
type HLL struct {
	P      uint8
	Sparse []uint64            // distinct hashes while small (exact counting)
	Regs   []uint8             // dense registers, once Sparse outgrows them
	set    map[uint64]struct{} // index of Sparse (rebuilt after a restore)
}

// Add folds a 64-bit hash into the sketch.
func (h *HLL) Add(x uint64) {
	if h.Regs == nil {
		if h.set == nil {
			h.set = make(map[uint64]struct{}, len(h.Sparse))
			for _, y := range h.Sparse {
				h.set[y] = struct{}{}
			}
		}
		if _, dup := h.set[x]; dup {
			return
		}
		h.set[x] = struct{}{}
		h.Sparse = append(h.Sparse, x)
		if len(h.Sparse) > (1<<h.P)/8 {
			h.densify()
		}
		return
	}
	h.addDense(x)
}

func (h *HLL) addDense(x uint64) {
	idx := x >> (64 - h.P)
	w := x<<h.P | 1<<(h.P-1) // guard bit bounds the rank
	rank := uint8(bits.LeadingZeros64(w) + 1)
	if rank > h.Regs[idx] {
		h.Regs[idx] = rank
	}
}

func (h *HLL) densify() {
	h.Regs = make([]uint8, 1<<h.P)
	for _, y := range h.Sparse {
		h.addDense(y)
	}
	h.Sparse, h.set = nil, nil
}

// Merge folds o (same precision) into h.
func (h *HLL) Merge(o *HLL) {
	if o.Regs == nil {
		for _, y := range o.Sparse {
			h.Add(y)
		}
		return
	}
	if h.Regs == nil {
		h.densify()
	}
	for i, r := range o.Regs {
		if r > h.Regs[i] {
			h.Regs[i] = r
		}
	}
}

// Estimate returns the approximate number of distinct hashes added.
func (h *HLL) Estimate() int64 {
	if h.Regs == nil {
		return int64(len(h.Sparse))
	}
	m := float64(len(h.Regs))
	var sum float64
	zeros := 0
	for _, r := range h.Regs {
		sum += 1 / float64(uint64(1)<<r)
		if r == 0 {
			zeros++
		}
	}
	alpha := 0.7213 / (1 + 1.079/m)
	e := alpha * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros)) // linear counting for small ranges
	}
	return int64(e + 0.5)
}

type hllAcc struct {
	p  uint8
	gs []*HLL
}

func (a *hllAcc) group(g uint32) *HLL {
	a.gs = grow(a.gs, g)
	if a.gs[g] == nil {
		a.gs[g] = &HLL{P: a.p}
	}
	return a.gs[g]
}

func (a *hllAcc) Update(groups []uint32, args []arrow.Array) error {
	one := args[:1]
	var buf []byte
	for i, g := range groups {
		k, ok := rowKey(one, i, buf)
		if !ok {
			continue
		}
		buf = k
		a.group(g).Add(xxhash.Sum64(k))
	}
	return nil
}

func (a *hllAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*hllAcc)
	if !ok || o.p != a.p {
		return mergeTypeError(a, other)
	}
	for g, h := range o.gs {
		if h != nil {
			a.group(mapping[g]).Merge(h)
		}
	}
	return nil
}

func (a *hllAcc) Result(n int) (arrow.Array, error) {
	out := make([]int64, n)
	for g := 0; g < n && g < len(a.gs); g++ {
		if a.gs[g] != nil {
			out[g] = a.gs[g].Estimate()
		}
	}
	return fixedArray(types.BigInt, out, nil), nil
}

func (a *hllAcc) Snapshot(w io.Writer) error {
	st := make([]HLL, len(a.gs))
	for i, h := range a.gs {
		if h != nil {
			st[i] = *h
		}
	}
	return snapshotGob(w, st)
}

func (a *hllAcc) Restore(r io.Reader) error {
	var st []HLL
	if err := restoreGob(r, &st); err != nil {
		return err
	}
	a.gs = make([]*HLL, len(st))
	for i := range st {
		if st[i].P != 0 {
			h := st[i]
			a.gs[i] = &h
		}
	}
	return nil
}
