package functions

import (
	"fmt"
	"io"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// sum: integers -> BIGINT, floats -> DOUBLE, DECIMAL(p,s) ->
// DECIMAL(min(38,p+10), s). avg: DOUBLE (its sum too, so it never
// overflows), or DECIMAL(min(38,p+4), min(38,s+4)) for decimals. Both
// are NULL for a group with no non-NULL input. A BIGINT sum past its
// range, or a DECIMAL result past its precision, is an error (Spark's
// ANSI mode); try_sum and try_avg give NULL for that group instead.
func makeSum(args []Arg, distinct bool) (*AggBound, error) {
	return makeSumAvg("sum", args[0].Type, false, false)
}

func makeAvg(args []Arg, distinct bool) (*AggBound, error) {
	return makeSumAvg("avg", args[0].Type, true, false)
}

func makeTrySum(args []Arg, distinct bool) (*AggBound, error) {
	return makeSumAvg("try_sum", args[0].Type, false, true)
}

func makeTryAvg(args []Arg, distinct bool) (*AggBound, error) {
	return makeSumAvg("try_avg", args[0].Type, true, true)
}

func makeSumAvg(name string, t arrow.DataType, avg, try bool) (*AggBound, error) {
	t = types.Normalize(t)
	switch {
	case t.ID() == arrow.DECIMAL128:
		d := t.(*arrow.Decimal128Type)
		rt := types.Decimal(min(38, d.Precision+10), d.Scale)
		if avg {
			rt = types.Decimal(min(38, d.Precision+4), min(38, d.Scale+4))
		}
		return &AggBound{Type: rt, New: func() Accumulator {
			return &decSumAcc{in: d, out: rt.(*arrow.Decimal128Type), avg: avg, try: try}
		}}, nil
	case types.IsInteger(t) && !avg:
		return &AggBound{Type: types.BigInt, Casts: []arrow.DataType{types.BigInt}, New: func() Accumulator {
			return &sumAcc[int64]{typ: types.BigInt, vals: i64s, try: try}
		}}, nil
	case types.IsNumeric(t) || t.ID() == arrow.NULL:
		return &AggBound{Type: types.Double, Casts: []arrow.DataType{types.Double}, New: func() Accumulator {
			return &sumAcc[float64]{typ: types.Double, vals: f64s, avg: avg}
		}}, nil
	}
	return nil, fmt.Errorf("%s expects a numeric argument, got %s", name, sqlName(t))
}

type sumState[T int64 | float64] struct {
	Sum []T
	Cnt []int64
	// Ovf marks BIGINT groups whose sum overflowed (try_sum only: sum
	// fails instead); nil when none did.
	Ovf []bool
}

type sumAcc[T int64 | float64] struct {
	typ  arrow.DataType
	vals func(arrow.Array) []T
	avg  bool
	try  bool
	st   sumState[T]
}

func (s *sumAcc[T]) Update(groups []uint32, args []arrow.Array) error {
	if m := maxGroup(groups); m >= 0 {
		s.st.Sum = sizeTo(s.st.Sum, m+1)
		s.st.Cnt = sizeTo(s.st.Cnt, m+1)
	}
	a := args[0]
	if a.DataType().ID() == arrow.NULL {
		return nil
	}
	vals := s.vals(a)
	if s64, ok := any(s).(*sumAcc[int64]); ok {
		return s64.updateChecked(groups, any(vals).([]int64), validBytes(a))
	}
	sum, cnt := s.st.Sum, s.st.Cnt
	if a.NullN() == 0 {
		for i, g := range groups {
			sum[g] += vals[i]
			cnt[g]++
		}
		return nil
	}
	vb := validBytes(a)
	for i, g := range groups {
		if isValid(vb, i) {
			sum[g] += vals[i]
			cnt[g]++
		}
	}
	return nil
}

// updateChecked is Update for BIGINT: the sign trick over the whole
// batch says whether any group overflowed; only then is the batch
// replayed on the old sums to find which.
func (s *sumAcc[T]) updateChecked(groups []uint32, vals []int64, vb []byte) error {
	st := any(&s.st).(*sumState[int64])
	sum, cnt := st.Sum, st.Cnt
	var ov int64
	if vb == nil {
		for i, g := range groups {
			o, v := sum[g], vals[i]
			r := o + v
			ov |= (o ^ r) & (v ^ r)
			sum[g] = r
			cnt[g]++
		}
	} else {
		for i, g := range groups {
			if isValid(vb, i) {
				o, v := sum[g], vals[i]
				r := o + v
				ov |= (o ^ r) & (v ^ r)
				sum[g] = r
				cnt[g]++
			}
		}
	}
	if ov >= 0 {
		return nil
	}
	// Undo the batch, then add again row by row with a check.
	for i, g := range groups {
		if isValid(vb, i) {
			sum[g] -= vals[i]
			cnt[g]--
		}
	}
	var bad *RowErrors
	for i, g := range groups {
		if !isValid(vb, i) {
			continue
		}
		r, ok := exactOp("+", sum[g], vals[i])
		if !ok {
			if !s.try {
				// Skip the row and go on, to name every failing row; the
				// whole batch is undone below.
				detail := fmt.Sprintf("%d + %d does not fit in BIGINT", sum[g], vals[i])
				if bad == nil {
					bad = &RowErrors{Err: overflowErr("sum", detail)}
				}
				bad.Rows = append(bad.Rows, i)
				bad.Errs = append(bad.Errs, overflowErr("sum", detail))
				continue
			}
			st.Ovf = sizeTo(st.Ovf, len(sum))
			st.Ovf[g] = true
		}
		cnt[g]++
		sum[g] = r
	}
	if bad != nil {
		// Nothing of a failed batch stays (Retractable).
		j := 0
		for i, g := range groups {
			if j < len(bad.Rows) && bad.Rows[j] == i {
				j++
				continue
			}
			if isValid(vb, i) {
				sum[g] -= vals[i]
				cnt[g]--
			}
		}
		return bad
	}
	return nil
}

func (s *sumAcc[T]) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*sumAcc[T])
	if !ok {
		return mergeTypeError(s, other)
	}
	_, checked := any(s).(*sumAcc[int64])
	for g := range o.st.Sum {
		t := mapping[g]
		s.st.Sum = grow(s.st.Sum, t)
		s.st.Cnt = grow(s.st.Cnt, t)
		ovf := g < len(o.st.Ovf) && o.st.Ovf[g]
		if checked {
			if _, ok := exactOp("+", s.st.Sum[t], o.st.Sum[g]); !ok {
				if !s.try {
					return overflowErr("sum", fmt.Sprintf("%v + %v does not fit in BIGINT", s.st.Sum[t], o.st.Sum[g]))
				}
				ovf = true
			}
		}
		if ovf {
			s.st.Ovf = sizeTo(s.st.Ovf, len(s.st.Sum))
			s.st.Ovf[t] = true
		}
		s.st.Sum[t] += o.st.Sum[g]
		s.st.Cnt[t] += o.st.Cnt[g]
	}
	return nil
}

func (s *sumAcc[T]) Result(n int) (arrow.Array, error) {
	valid := newValidity(n)
	vb := valid.Bytes()
	has := func(g int) bool {
		return g < len(s.st.Cnt) && s.st.Cnt[g] > 0 && (g >= len(s.st.Ovf) || !s.st.Ovf[g])
	}
	if s.avg {
		out := make([]float64, n)
		for g := range out {
			if has(g) {
				out[g] = float64(s.st.Sum[g]) / float64(s.st.Cnt[g])
			} else {
				vb[g>>3] &^= 1 << (uint(g) & 7)
			}
		}
		return fixedArray(types.Double, out, valid), nil
	}
	out := make([]T, n)
	for g := range out {
		if has(g) {
			out[g] = s.st.Sum[g]
		} else {
			vb[g>>3] &^= 1 << (uint(g) & 7)
		}
	}
	return fixedArray(s.typ, out, valid), nil
}

func (s *sumAcc[T]) Snapshot(w io.Writer) error { return snapshotGob(w, &s.st) }
func (s *sumAcc[T]) Restore(r io.Reader) error  { return restoreGob(r, &s.st) }

type decSumAcc struct {
	in, out *arrow.Decimal128Type
	avg     bool
	try     bool
	sum     []decimal128.Num
	cnt     []int64
	// ovf marks groups whose 128-bit sum overflowed; their result does
	// not fit any DECIMAL.
	ovf []bool
}

// add is a + b, and whether it stayed within 128 bits: operands of one
// sign whose sum has the other overflowed.
func decAdd(a, b decimal128.Num) (decimal128.Num, bool) {
	r := a.Add(b)
	return r, (a.HighBits()^r.HighBits())&(b.HighBits()^r.HighBits()) >= 0
}

func (s *decSumAcc) fold(g uint32, v decimal128.Num) {
	r, ok := decAdd(s.sum[g], v)
	if !ok {
		s.ovf = sizeTo(s.ovf, len(s.sum))
		s.ovf[g] = true
	}
	s.sum[g] = r
}

func (s *decSumAcc) Update(groups []uint32, args []arrow.Array) error {
	if m := maxGroup(groups); m >= 0 {
		s.sum = sizeTo(s.sum, m+1)
		s.cnt = sizeTo(s.cnt, m+1)
	}
	vals := decs(args[0])
	vb := validBytes(args[0])
	for i, g := range groups {
		if isValid(vb, i) {
			s.fold(g, vals[i])
			s.cnt[g]++
		}
	}
	return nil
}

func (s *decSumAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*decSumAcc)
	if !ok {
		return mergeTypeError(s, other)
	}
	for g := range o.sum {
		t := mapping[g]
		s.sum = grow(s.sum, t)
		s.cnt = grow(s.cnt, t)
		s.fold(t, o.sum[g])
		if g < len(o.ovf) && o.ovf[g] {
			s.ovf = sizeTo(s.ovf, len(s.sum))
			s.ovf[t] = true
		}
		s.cnt[t] += o.cnt[g]
	}
	return nil
}

func (s *decSumAcc) Result(n int) (arrow.Array, error) {
	valid := newValidity(n)
	vb := valid.Bytes()
	out := make([]decimal128.Num, n)
	for g := range out {
		if g >= len(s.cnt) || s.cnt[g] == 0 {
			vb[g>>3] &^= 1 << (uint(g) & 7)
			continue
		}
		v := s.sum[g]
		ok := g >= len(s.ovf) || !s.ovf[g]
		if ok && s.avg {
			q := new(big.Int).Mul(v.BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s.out.Scale-s.in.Scale+1)), nil))
			q.Quo(q, big.NewInt(s.cnt[g]))
			v, ok = fromBig(q, s.out.Scale+1, s.out.Scale)
		}
		if !ok || !v.FitsInPrecision(s.out.Precision) {
			if !s.try {
				name := "sum"
				if s.avg {
					name = "avg"
				}
				what := "the sum"
				if ok {
					what = v.ToString(s.out.Scale)
				}
				return nil, overflowErr(name, fmt.Sprintf("%s does not fit in %s", what, sqlName(s.out)))
			}
			vb[g>>3] &^= 1 << (uint(g) & 7)
			continue
		}
		out[g] = v
	}
	return fixedArray(arrow.DataType(s.out), out, valid), nil
}

type decSumState struct {
	Sum []dec2
	Cnt []int64
	Ovf []bool
}

func (s *decSumAcc) Snapshot(w io.Writer) error {
	return snapshotGob(w, decSumState{toDec2(s.sum), s.cnt, s.ovf})
}

func (s *decSumAcc) Restore(r io.Reader) error {
	var st decSumState
	if err := restoreGob(r, &st); err != nil {
		return err
	}
	s.sum, s.cnt, s.ovf = fromDec2(st.Sum), st.Cnt, st.Ovf
	return nil
}
