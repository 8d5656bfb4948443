package functions

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// approx_percentile(x, p[, accuracy]) / percentile_approx: Spark's
// contract. A group keeps its values exactly while it holds at most
// accuracy (default 10000) of them, so small groups get the exact
// percentile; past that it becomes a KLL-style compacting sketch with
// k = accuracy values per level (level l holds values of weight 2^l; a
// full level is sorted and every other value, alternating offsets so
// results are deterministic, moves up), a rank error of about
// 1/accuracy. p is a constant DOUBLE in [0, 1] or an ARRAY of them. The
// result has x's type (an integer or floating type; DECIMAL answers
// DOUBLE), or an ARRAY of it; values are held as DOUBLE, so a BIGINT
// beyond 2^53 comes back rounded.
func makeApproxPercentile(args []Arg, distinct bool) (*AggBound, error) {
	if t := types.Normalize(args[0].Type); !types.IsNumeric(t) && t.ID() != arrow.NULL {
		return nil, fmt.Errorf("approx_percentile expects a numeric argument, got %s", sqlName(t))
	}
	if !args[1].Const {
		return nil, fmt.Errorf("approx_percentile expects a constant percentage")
	}
	var ps []float64
	many := false
	switch v := args[1].Value.(type) {
	case []any:
		many = true
		for _, x := range v {
			f, ok := asFloat(x)
			if !ok {
				return nil, fmt.Errorf("approx_percentile: percentages must be numbers, got %v", x)
			}
			ps = append(ps, f)
		}
	case decimal128.Num:
		ps = []float64{v.ToFloat64(args[1].Type.(*arrow.Decimal128Type).Scale)}
	default:
		f, ok := asFloat(v)
		if !ok {
			return nil, fmt.Errorf("approx_percentile: the percentage must be a number, got %v", v)
		}
		ps = []float64{f}
	}
	for _, p := range ps {
		if p < 0 || p > 1 || math.IsNaN(p) {
			return nil, fmt.Errorf("approx_percentile: percentages must be between 0 and 1, got %v", p)
		}
	}
	k := 10000
	if len(args) == 3 {
		acc, ok := toInt64(args[2].Value)
		if !args[2].Const || !ok || acc <= 0 {
			return nil, fmt.Errorf("approx_percentile: the accuracy must be a positive constant integer")
		}
		k = int(min(max(acc, 16), 1000000))
	}
	et := percentileType(args[0].Type)
	rt := et
	if many {
		rt = types.Array(et)
	}
	casts := []arrow.DataType{types.Double, nil, nil}[:len(args)]
	return &AggBound{Type: rt, Casts: casts, New: func() Accumulator {
		return &percentileAcc{k: k, ps: ps, many: many, typ: et}
	}}, nil
}

// percentileType is the result type for input t: Spark answers in the
// input's type. Values come from x, so they convert back exactly.
func percentileType(t arrow.DataType) arrow.DataType {
	switch types.Normalize(t).ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.FLOAT32:
		return types.Normalize(t)
	}
	return types.Double
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	i, ok := toInt64(v)
	return float64(i), ok
}

// KLL is the sketch of one group. Min and Max are exact, so p = 0 and
// p = 1 are too; a level compacts only when it holds more than K values,
// so up to K values the sketch is exact (as Spark is while n <= accuracy).
type KLL struct {
	K      int
	Levels [][]float64
	Flip   []bool // per level: which half the next compaction keeps
	N      int64
	// HasMinMax marks Min and Max as tracked (snapshots written before
	// they were fall back to the levels).
	HasMinMax bool
	Min, Max  float64
}

// Add inserts one value.
func (s *KLL) Add(x float64) {
	if len(s.Levels) == 0 {
		s.Levels = [][]float64{nil}
		s.Flip = []bool{false}
	}
	s.Levels[0] = append(s.Levels[0], x)
	if s.N == 0 {
		s.Min, s.Max, s.HasMinMax = x, x, true
	} else {
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	s.N++
	if len(s.Levels[0]) > s.K {
		s.compact(0)
	}
}

func (s *KLL) compact(l int) {
	for ; l < len(s.Levels) && len(s.Levels[l]) > s.K; l++ {
		lv := s.Levels[l]
		slices.Sort(lv)
		if l+1 == len(s.Levels) {
			s.Levels = append(s.Levels, nil)
			s.Flip = append(s.Flip, false)
		}
		start := 0
		if s.Flip[l] {
			start = 1
		}
		s.Flip[l] = !s.Flip[l]
		odd := len(lv) % 2
		for i := start; i+odd < len(lv); i += 2 {
			s.Levels[l+1] = append(s.Levels[l+1], lv[i])
		}
		if odd == 1 {
			s.Levels[l] = append(lv[:0], lv[len(lv)-1])
		} else {
			s.Levels[l] = lv[:0]
		}
	}
}

// Merge folds o into s.
func (s *KLL) Merge(o *KLL) {
	for len(s.Levels) < len(o.Levels) {
		s.Levels = append(s.Levels, nil)
		s.Flip = append(s.Flip, false)
	}
	for l, lv := range o.Levels {
		s.Levels[l] = append(s.Levels[l], lv...)
	}
	switch {
	case o.N == 0:
	case s.N == 0:
		s.Min, s.Max, s.HasMinMax = o.Min, o.Max, o.HasMinMax
	default:
		s.Min, s.Max = min(s.Min, o.Min), max(s.Max, o.Max)
		s.HasMinMax = s.HasMinMax && o.HasMinMax
	}
	s.N += o.N
	for l := 0; l < len(s.Levels); l++ {
		if len(s.Levels[l]) > s.K {
			s.compact(l)
		}
	}
}

// Quantiles returns the value at each rank fraction in ps.
func (s *KLL) Quantiles(ps []float64) []float64 {
	return s.quantiles(ps, nil)
}

// quantiles is Quantiles with scratch space for the sort of a sketch
// that never compacted.
func (s *KLL) quantiles(ps []float64, scratch *[]float64) []float64 {
	if out, ok := s.exactQuantiles(ps, scratch); ok {
		return out
	}
	type wv struct {
		v float64
		w int64
	}
	var all []wv
	var total int64
	for l, lv := range s.Levels {
		for _, v := range lv {
			all = append(all, wv{v, 1 << l})
			total += 1 << l
		}
	}
	slices.SortFunc(all, func(a, b wv) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	out := make([]float64, len(ps))
	for i, p := range ps {
		if s.HasMinMax && (p == 0 || p == 1) {
			out[i] = s.Min
			if p == 1 {
				out[i] = s.Max
			}
			continue
		}
		target := int64(math.Ceil(p * float64(total)))
		var cum int64
		out[i] = all[len(all)-1].v
		for _, x := range all {
			cum += x.w
			if cum >= target {
				out[i] = x.v
				break
			}
		}
	}
	return out
}

// exactQuantiles answers Quantiles when every value is still at level 0
// (weight 1: a group of at most accuracy values) and none is NaN, by
// selecting the asked ranks among the plain values: the same answer as
// the weighted walk, at a fraction of its cost (no sort, no comparison
// function, half the bytes), which matters when a query has thousands of
// small groups. NaN is left to the weighted walk, whose comparator this
// order would not reproduce.
func (s *KLL) exactQuantiles(ps []float64, scratch *[]float64) ([]float64, bool) {
	for _, lv := range s.Levels[min(1, len(s.Levels)):] {
		if len(lv) > 0 {
			return nil, false
		}
	}
	if len(s.Levels) == 0 || len(s.Levels[0]) == 0 {
		return nil, false
	}
	var vs []float64
	if scratch != nil {
		vs = append((*scratch)[:0], s.Levels[0]...)
		*scratch = vs
	} else {
		vs = slices.Clone(s.Levels[0])
	}
	for _, v := range vs {
		if v != v {
			return nil, false
		}
	}
	n := int64(len(vs))
	out := make([]float64, len(ps))
	// at[i] is p_i's rank among the values, -1 where Min or Max answers.
	var one [1]int
	at := one[:0]
	if len(ps) > 1 {
		at = make([]int, 0, len(ps))
	}
	for _, p := range ps {
		r := -1
		if !s.HasMinMax || (p != 0 && p != 1) {
			r = int(min(max(int64(math.Ceil(p*float64(n))), 1), n) - 1)
		}
		at = append(at, r)
	}
	// Ranks in ascending order, each selected among the values above the
	// one before it: vs[r] is then the value a sort puts there.
	ranks := at
	if len(at) > 1 {
		ranks = slices.Sorted(slices.Values(at))
	}
	base := 0
	for _, r := range ranks {
		if r >= base {
			selectKth(vs[base:], r-base)
			base = r + 1
		}
	}
	for i, r := range at {
		switch {
		case r >= 0:
			out[i] = vs[r]
		case ps[i] == 0:
			out[i] = s.Min
		default:
			out[i] = s.Max
		}
	}
	return out, true
}

type percentileAcc struct {
	typ  arrow.DataType // the result's element type
	k    int
	ps   []float64
	many bool
	gs   []*KLL
}

func (a *percentileAcc) group(g uint32) *KLL {
	a.gs = grow(a.gs, g)
	if a.gs[g] == nil {
		a.gs[g] = &KLL{K: a.k}
	}
	return a.gs[g]
}

func (a *percentileAcc) Update(groups []uint32, args []arrow.Array) error {
	if args[0].DataType().ID() == arrow.NULL {
		return nil
	}
	x := f64s(args[0])
	vb := validBytes(args[0])
	for i, g := range groups {
		if isValid(vb, i) && !math.IsNaN(x[i]) {
			a.group(g).Add(x[i])
		}
	}
	return nil
}

func (a *percentileAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*percentileAcc)
	if !ok {
		return mergeTypeError(a, other)
	}
	for g, s := range o.gs {
		if s != nil {
			a.group(mapping[g]).Merge(s)
		}
	}
	return nil
}

func (a *percentileAcc) Result(n int) (arrow.Array, error) {
	var scratch []float64
	if !a.many {
		out := make([]float64, n)
		valid := newValidity(n)
		vb := valid.Bytes()
		for g := range out {
			if g >= len(a.gs) || a.gs[g] == nil || a.gs[g].N == 0 {
				vb[g>>3] &^= 1 << (uint(g) & 7)
				continue
			}
			out[g] = a.gs[g].quantiles(a.ps, &scratch)[0]
		}
		return a.asType(fixedArray(types.Double, out, valid))
	}
	b := array.NewListBuilder(mem, types.Double)
	defer b.Release()
	vb := b.ValueBuilder().(*array.Float64Builder)
	for g := 0; g < n; g++ {
		if g >= len(a.gs) || a.gs[g] == nil || a.gs[g].N == 0 {
			b.AppendNull()
			continue
		}
		b.Append(true)
		vb.AppendValues(a.gs[g].quantiles(a.ps, &scratch), nil)
	}
	return a.asType(b.NewArray())
}

// asType converts DOUBLE results (or lists of them) to the input's type.
func (a *percentileAcc) asType(arr arrow.Array) (arrow.Array, error) {
	if a.typ == nil || arrow.TypeEqual(a.typ, types.Double) {
		return arr, nil
	}
	defer arr.Release()
	to := a.typ
	if a.many {
		to = types.Array(a.typ)
	}
	out, err := compute.CastArray(context.Background(), arr, compute.SafeCastOptions(to))
	if err != nil {
		return nil, fmt.Errorf("approx_percentile: result as %s: %w", sqlName(a.typ), err)
	}
	return out, nil
}

func (a *percentileAcc) Snapshot(w io.Writer) error {
	st := make([]KLL, len(a.gs))
	for i, s := range a.gs {
		if s != nil {
			st[i] = *s
		}
	}
	return snapshotGob(w, st)
}

func (a *percentileAcc) Restore(r io.Reader) error {
	var st []KLL
	if err := restoreGob(r, &st); err != nil {
		return err
	}
	a.gs = make([]*KLL, len(st))
	for i := range st {
		if st[i].K != 0 {
			s := st[i]
			a.gs[i] = &s
		}
	}
	return nil
}
