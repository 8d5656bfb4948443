package exec

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/expr"
)

// maxFrameExpand bounds the rows one accumulator update of sliding
// frames copies: frames are folded a chunk of rows at a time.
const maxFrameExpand = 1 << 16

// frameBounds gives each row's frame [start, end) in partition p. RANGE
// offsets read key, the single order key (desc: its direction).
func frameBounds(f expr.WindowFrame, p *expr.WindowPartition, key arrow.Array, desc bool) ([]int, []int, error) {
	n := p.N
	start, end := make([]int, n), make([]int, n)
	var rk *rangeKey
	if f.Unit == expr.FrameRange && (hasOffset(f.Start) || hasOffset(f.End)) {
		var err error
		if rk, err = newRangeKey(key, desc); err != nil {
			return nil, nil, err
		}
	}
	for i := 0; i < n; i++ {
		start[i] = bound(f, f.Start, i, p, rk, false)
		end[i] = bound(f, f.End, i, p, rk, true)
	}
	return start, end, nil
}

func hasOffset(b expr.FrameBound) bool { return b.Kind == expr.Preceding || b.Kind == expr.Following }

// bound is where row i's frame starts (or, isEnd, one past where it ends).
func bound(f expr.WindowFrame, b expr.FrameBound, i int, p *expr.WindowPartition, rk *rangeKey, isEnd bool) int {
	n := p.N
	switch b.Kind {
	case expr.UnboundedPreceding:
		return 0
	case expr.UnboundedFollowing:
		return n
	case expr.CurrentRow:
		if f.Unit == expr.FrameRange {
			if isEnd {
				return p.PeerEnd[i]
			}
			return p.PeerStart[i]
		}
		if isEnd {
			return i + 1
		}
		return i
	}
	if f.Unit == expr.FrameRows {
		off := b.N
		if b.Kind == expr.Preceding {
			off = -off
		}
		j := int64(i) + off
		if isEnd {
			j++
		}
		return int(min(max(j, 0), int64(n)))
	}
	// RANGE: a NULL key's frame is its peers (the other NULLs).
	if !rk.valid(i) {
		if isEnd {
			return p.PeerEnd[i]
		}
		return p.PeerStart[i]
	}
	return rk.search(i, b, isEnd)
}

// rangeKey is the order key of a RANGE frame with offsets, as int64
// (integers, DATE days, TIMESTAMP µs) or float64 (the rest), with the
// non-NULL rows [lo, hi) (NULLs sort together at one end).
type rangeKey struct {
	arr    arrow.Array
	ints   []int64
	floats []float64
	desc   bool
	lo, hi int
}

func newRangeKey(a arrow.Array, desc bool) (*rangeKey, error) {
	if a == nil {
		return nil, fmt.Errorf("a RANGE frame with an offset needs exactly one ORDER BY key")
	}
	n := a.Len()
	rk := &rangeKey{arr: a, desc: desc, lo: 0, hi: n}
	for rk.lo < n && a.IsNull(rk.lo) {
		rk.lo++
	}
	for rk.hi > rk.lo && a.IsNull(rk.hi-1) {
		rk.hi--
	}
	switch v := a.(type) {
	case *array.Int8:
		rk.ints = widen(v.Int8Values())
	case *array.Int16:
		rk.ints = widen(v.Int16Values())
	case *array.Int32:
		rk.ints = widen(v.Int32Values())
	case *array.Int64:
		rk.ints = v.Int64Values()
	case *array.Date32:
		rk.ints = make([]int64, n)
		for i := range rk.ints {
			rk.ints[i] = int64(v.Value(i))
		}
	case *array.Timestamp:
		rk.ints = make([]int64, n)
		for i := range rk.ints {
			rk.ints[i] = int64(v.Value(i))
		}
	case *array.Float32:
		rk.floats = make([]float64, n)
		for i := range rk.floats {
			rk.floats[i] = float64(v.Value(i))
		}
	case *array.Float64:
		rk.floats = v.Float64Values()
	case *array.Decimal128:
		scale := v.DataType().(*arrow.Decimal128Type).Scale
		rk.floats = make([]float64, n)
		for i := range rk.floats {
			rk.floats[i] = decimal128.Num(v.Value(i)).ToFloat64(scale)
		}
	default:
		return nil, fmt.Errorf("a RANGE frame with an offset cannot order by %s", a.DataType())
	}
	return rk, nil
}

func widen[T int8 | int16 | int32](xs []T) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

func (rk *rangeKey) valid(i int) bool { return rk.arr.IsValid(i) }

// search finds, among the non-NULL rows, the first row at or after (end:
// strictly after) row i's value moved by the bound's offset, in sort
// order.
func (rk *rangeKey) search(i int, b expr.FrameBound, isEnd bool) int {
	// Moving "following" goes up the values when ascending, down when not.
	up := (b.Kind == expr.Following) != rk.desc
	var after func(j int) bool
	if rk.ints != nil {
		t := satAdd(rk.ints[i], b.N, up)
		after = func(j int) bool {
			v := rk.ints[j]
			if rk.desc {
				return v < t || !isEnd && v == t
			}
			return v > t || !isEnd && v == t
		}
	} else {
		t := rk.floats[i] - b.F
		if up {
			t = rk.floats[i] + b.F
		}
		after = func(j int) bool {
			v := rk.floats[j]
			if rk.desc {
				return v < t || !isEnd && v == t
			}
			return v > t || !isEnd && v == t
		}
	}
	return rk.lo + sort.Search(rk.hi-rk.lo, func(k int) bool { return after(rk.lo + k) })
}

// satAdd is v+n (up) or v-n, saturating.
func satAdd(v, n int64, up bool) int64 {
	if up {
		if v > math.MaxInt64-n {
			return math.MaxInt64
		}
		return v + n
	}
	if v < math.MinInt64+n {
		return math.MinInt64
	}
	return v - n
}

// aggregateFrames folds each row's frame through f's accumulator. Frames
// that only grow (from the partition start) are folded incrementally,
// as are frames that only shrink (to the partition end) when the result
// does not depend on row order; other frames are copied a chunk of rows
// at a time, one group per row.
func aggregateFrames(ctx context.Context, f *expr.WindowFunc, fr expr.WindowFrame, p *expr.WindowPartition) (arrow.Array, error) {
	n := p.N
	if n == 0 {
		return f.Agg.NewAccumulator().Result(0)
	}
	switch {
	case allEqual(p.FrameStart, 0) && nonDecreasing(p.FrameEnd):
		return runningFrames(ctx, f, p, false)
	case allEqual(p.FrameEnd, n) && nonDecreasing(p.FrameStart) && !f.OrderSensitive():
		return runningFrames(ctx, f, p, true)
	}
	return expandedFrames(ctx, f, p)
}

func allEqual(xs []int, v int) bool {
	for _, x := range xs {
		if x != v {
			return false
		}
	}
	return true
}

func nonDecreasing(xs []int) bool {
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] {
			return false
		}
	}
	return true
}

// runningFrames adds rows to one accumulator as the frame grows (reverse:
// from the end, as the frame start moves back) and reads a result each
// time it changed.
func runningFrames(ctx context.Context, f *expr.WindowFunc, p *expr.WindowPartition, reverse bool) (arrow.Array, error) {
	n := p.N
	acc := f.Agg.NewAccumulator()
	var steps []arrow.Array
	defer func() { releaseAll(steps) }()
	stepOf := make([]int32, n)
	zeros := make([]uint32, n)
	edge, cur := 0, -1
	if reverse {
		edge = n
	}
	add := func(a, b int) error {
		if a >= b {
			return nil
		}
		args := make([]arrow.Array, len(p.Args))
		for k, x := range p.Args {
			args[k] = array.NewSlice(x, int64(a), int64(b))
		}
		err := acc.Update(zeros[:b-a], args)
		releaseAll(args)
		cur = -1
		return err
	}
	for k := 0; k < n; k++ {
		i := k
		if reverse {
			i = n - 1 - k
			if lo := min(p.FrameStart[i], n); lo < edge {
				if err := add(lo, edge); err != nil {
					return nil, err
				}
				edge = lo
			}
		} else if hi := max(p.FrameEnd[i], 0); hi > edge {
			if err := add(edge, hi); err != nil {
				return nil, err
			}
			edge = hi
		}
		if cur < 0 {
			r, err := acc.Result(1)
			if err != nil {
				return nil, err
			}
			steps = append(steps, r)
			cur = len(steps) - 1
		}
		stepOf[i] = int32(cur)
	}
	return pick(ctx, steps, stepOf)
}

// pick concatenates parts and takes idx from them.
func pick(ctx context.Context, parts []arrow.Array, idx []int32) (arrow.Array, error) {
	all, err := array.Concatenate(parts, memAlloc)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	b := array.NewInt32Builder(memAlloc)
	b.AppendValues(idx, nil)
	ia := b.NewArray()
	b.Release()
	defer ia.Release()
	return compute.TakeArray(ctx, all, ia)
}

// expandedFrames copies each row's frame rows into its own group.
func expandedFrames(ctx context.Context, f *expr.WindowFunc, p *expr.WindowPartition) (arrow.Array, error) {
	n := p.N
	var parts []arrow.Array
	defer func() { releaseAll(parts) }()
	for first := 0; first < n; {
		var idx []int32
		var groups []uint32
		r := first
		for r < n {
			lo, hi := p.FrameStart[r], p.FrameEnd[r]
			if r > first && hi > lo && len(idx)+hi-lo > maxFrameExpand {
				break
			}
			for j := lo; j < hi; j++ {
				idx = append(idx, int32(j))
				groups = append(groups, uint32(r-first))
			}
			r++
		}
		acc := f.Agg.NewAccumulator()
		if len(idx) > 0 {
			b := array.NewInt32Builder(memAlloc)
			b.AppendValues(idx, nil)
			ia := b.NewArray()
			b.Release()
			args := make([]arrow.Array, 0, len(p.Args))
			for _, x := range p.Args {
				t, err := compute.TakeArray(ctx, x, ia)
				if err != nil {
					ia.Release()
					releaseAll(args)
					return nil, err
				}
				args = append(args, t)
			}
			ia.Release()
			err := acc.Update(groups, args)
			releaseAll(args)
			if err != nil {
				return nil, err
			}
		}
		res, err := acc.Result(r - first)
		if err != nil {
			return nil, err
		}
		parts = append(parts, res)
		first = r
	}
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	return array.Concatenate(parts, memAlloc)
}
