package functions

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// tupleAcc is the accumulator of aggregates that need their group's rows
// (exact percentiles, mode, max_by) or whose moments are cheap enough to
// take at the end (corr, regr_*): it keeps each group's argument tuples,
// as rowFn's Go values, and computes the result once. Rows where a
// required argument is NULL are dropped on the way in.
type tupleAcc struct {
	Groups   [][][]any
	required []bool // per argument: drop the row when it is NULL
	rt       arrow.DataType
	result   func(rows [][]any) (any, error)
}

var _ Accumulator = (*tupleAcc)(nil)

func (a *tupleAcc) Update(groups []uint32, args []arrow.Array) error {
rows:
	for i, g := range groups {
		t := make([]any, len(args))
		for j, arr := range args {
			t[j] = goValue(arr, i)
			if t[j] == nil && (j >= len(a.required) || a.required[j]) {
				continue rows
			}
		}
		a.Groups = grow(a.Groups, g)
		a.Groups[g] = append(a.Groups[g], t)
	}
	return nil
}

func (a *tupleAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*tupleAcc)
	if !ok {
		return mergeTypeError(a, other)
	}
	for g, rows := range o.Groups {
		if len(rows) == 0 {
			continue
		}
		d := mapping[g]
		a.Groups = grow(a.Groups, d)
		a.Groups[d] = append(a.Groups[d], rows...)
	}
	return nil
}

func (a *tupleAcc) Result(numGroups int) (arrow.Array, error) {
	b := array.NewBuilder(mem, a.rt)
	defer b.Release()
	for g := 0; g < numGroups; g++ {
		var rows [][]any
		if g < len(a.Groups) {
			rows = a.Groups[g]
		}
		v, err := a.result(rows)
		if err != nil {
			return nil, err
		}
		if err := appendGo(b, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

func (a *tupleAcc) Snapshot(w io.Writer) error { return snapshotGob(w, a.Groups) }
func (a *tupleAcc) Restore(r io.Reader) error  { return restoreGob(r, &a.Groups) }

// tupleAgg binds an aggregate over tupleAcc: casts per argument (nil: as
// is), which arguments must be non-NULL, the result type and function.
func tupleAgg(rt arrow.DataType, casts []arrow.DataType, required []bool, f func(rows [][]any) (any, error)) *AggBound {
	return &AggBound{Type: rt, Casts: casts, New: func() Accumulator {
		return &tupleAcc{required: required, rt: rt, result: f}
	}}
}

func doubles(fn string, args []Arg, n int) ([]arrow.DataType, error) {
	casts := make([]arrow.DataType, len(args))
	for i := 0; i < n && i < len(args); i++ {
		t := types.Normalize(args[i].Type)
		if t.ID() != arrow.NULL && !types.IsNumeric(t) {
			return nil, fmt.Errorf("function %s expects numbers, got %s", fn, sqlName(t))
		}
		casts[i] = types.Double
	}
	return casts, nil
}

// moments of x (and y) over rows: count, means, co-moments.
type moments struct{ n, mx, my, sxx, syy, sxy float64 }

func pairMoments(rows [][]any, xi, yi int) moments {
	var m moments
	for _, r := range rows {
		m.n++
		m.mx += r[xi].(float64)
		m.my += r[yi].(float64)
	}
	if m.n == 0 {
		return m
	}
	m.mx /= m.n
	m.my /= m.n
	for _, r := range rows {
		dx, dy := r[xi].(float64)-m.mx, r[yi].(float64)-m.my
		m.sxx += dx * dx
		m.syy += dy * dy
		m.sxy += dx * dy
	}
	return m
}

// makeBivariate binds corr, covar_* and regr_* (Spark's argument order:
// regr_*(y, x)); only rows where both are non-NULL count.
func makeBivariate(fn string, f func(m moments) any) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		casts, err := doubles(fn, args, 2)
		if err != nil {
			return nil, err
		}
		rt := types.Double
		if fn == "regr_count" {
			rt = types.BigInt
		}
		return tupleAgg(rt, casts, []bool{true, true}, func(rows [][]any) (any, error) {
			// pairMoments(rows, 1, 0): x is the second argument.
			return f(pairMoments(rows, 1, 0)), nil
		}), nil
	}
}

func nullIf(cond bool, v float64) any {
	if cond {
		return nil
	}
	return v
}

var (
	makeCorr = makeBivariate("corr", func(m moments) any {
		return nullIf(m.n < 2, m.sxy/math.Sqrt(m.sxx*m.syy))
	})
	makeCovarPop      = makeBivariate("covar_pop", func(m moments) any { return nullIf(m.n == 0, m.sxy/m.n) })
	makeCovarSamp     = makeBivariate("covar_samp", func(m moments) any { return nullIf(m.n < 2, m.sxy/(m.n-1)) })
	makeRegrCount     = makeBivariate("regr_count", func(m moments) any { return int64(m.n) })
	makeRegrAvgX      = makeBivariate("regr_avgx", func(m moments) any { return nullIf(m.n == 0, m.mx) })
	makeRegrAvgY      = makeBivariate("regr_avgy", func(m moments) any { return nullIf(m.n == 0, m.my) })
	makeRegrSXX       = makeBivariate("regr_sxx", func(m moments) any { return nullIf(m.n == 0, m.sxx) })
	makeRegrSYY       = makeBivariate("regr_syy", func(m moments) any { return nullIf(m.n == 0, m.syy) })
	makeRegrSXY       = makeBivariate("regr_sxy", func(m moments) any { return nullIf(m.n == 0, m.sxy) })
	makeRegrSlope     = makeBivariate("regr_slope", func(m moments) any { return nullIf(m.n == 0 || m.sxx == 0, m.sxy/m.sxx) })
	makeRegrIntercept = makeBivariate("regr_intercept", func(m moments) any {
		return nullIf(m.n == 0 || m.sxx == 0, m.my-m.sxy/m.sxx*m.mx)
	})
	// regr_r2 is NULL when x is constant and 1 when y is (Spark).
	makeRegrR2 = makeBivariate("regr_r2", func(m moments) any {
		switch {
		case m.n == 0 || m.sxx == 0:
			return nil
		case m.syy == 0:
			return 1.0
		}
		return m.sxy * m.sxy / (m.sxx * m.syy)
	})
)

// makeHigherMoment binds skewness and kurtosis (excess), as Spark: NULL
// for no rows, NaN when the values do not vary.
func makeHigherMoment(fn string) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		casts, err := doubles(fn, args, 1)
		if err != nil {
			return nil, err
		}
		return tupleAgg(types.Double, casts, []bool{true}, func(rows [][]any) (any, error) {
			n := float64(len(rows))
			if n == 0 {
				return nil, nil
			}
			var mean float64
			for _, r := range rows {
				mean += r[0].(float64)
			}
			mean /= n
			var m2, m3, m4 float64
			for _, r := range rows {
				d := r[0].(float64) - mean
				m2 += d * d
				m3 += d * d * d
				m4 += d * d * d * d
			}
			if m2 == 0 {
				return math.NaN(), nil
			}
			if fn == "skewness" {
				return math.Sqrt(n) * m3 / math.Pow(m2, 1.5), nil
			}
			return n*m4/(m2*m2) - 3, nil
		}), nil
	}
}

// percentileOf is Spark's exact percentile: linear interpolation between
// the sorted values at position p*(n-1).
func percentileOf(sorted []float64, p float64) float64 {
	pos := p * float64(len(sorted)-1)
	lo := math.Floor(pos)
	i := int(lo)
	if i+1 >= len(sorted) {
		return sorted[i]
	}
	return (lo+1-pos)*sorted[i] + (pos-lo)*sorted[i+1]
}

// percentile(x, p[, frequency]): p a constant in [0, 1] or an array of
// them (the result is then an array); frequency repeats a row.
func makePercentile(args []Arg, distinct bool) (*AggBound, error) {
	if len(args) < 2 || !args[1].Const {
		return nil, fmt.Errorf("function percentile expects a constant percentage")
	}
	var ps []float64
	single := true
	switch v := args[1].Value.(type) {
	case []any:
		single = false
		for _, e := range v {
			f, ok := asFloat(e)
			if !ok {
				f, ok = toFloat(e)
			}
			if !ok {
				return nil, fmt.Errorf("function percentile expects numeric percentages")
			}
			ps = append(ps, f)
		}
	case decimal128.Num:
		ps = []float64{v.ToFloat64(args[1].Type.(*arrow.Decimal128Type).Scale)}
	default:
		f, ok := asFloat(v)
		if !ok {
			return nil, fmt.Errorf("function percentile expects a numeric percentage, got %v", v)
		}
		ps = []float64{f}
	}
	for _, p := range ps {
		if p < 0 || p > 1 || math.IsNaN(p) {
			return nil, fmt.Errorf("function percentile: percentage %v must be between 0.0 and 1.0", p)
		}
	}
	return percentileBound("percentile", args, ps, single)
}

func percentileBound(fn string, args []Arg, ps []float64, single bool) (*AggBound, error) {
	casts, err := doubles(fn, args[:1], 1)
	if err != nil {
		return nil, err
	}
	casts = append(casts, make([]arrow.DataType, len(args)-1)...)
	if len(args) == 3 {
		casts[2] = types.BigInt
	}
	rt := types.Double
	if !single {
		rt = types.Array(types.Double)
	}
	required := make([]bool, len(args))
	required[0] = true
	if len(args) == 3 {
		required[2] = true
	}
	return tupleAgg(rt, casts, required, func(rows [][]any) (any, error) {
		var xs []float64
		for _, r := range rows {
			k := int64(1)
			if len(r) == 3 {
				if k = r[2].(int64); k < 0 {
					return nil, fmt.Errorf("%s: negative frequency %d", fn, k)
				}
			}
			for ; k > 0; k-- {
				xs = append(xs, r[0].(float64))
			}
		}
		if len(xs) == 0 {
			return nil, nil
		}
		sort.Float64s(xs)
		if single {
			return percentileOf(xs, ps[0]), nil
		}
		out := make([]any, len(ps))
		for i, p := range ps {
			out[i] = percentileOf(xs, p)
		}
		return out, nil
	}), nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string: // DECIMAL constants
		var f float64
		_, err := fmt.Sscan(x, &f)
		return f, err == nil
	}
	if i, ok := toInt64(v); ok {
		return float64(i), true
	}
	return 0, false
}

func makeMedian(args []Arg, distinct bool) (*AggBound, error) {
	return percentileBound("median", args, []float64{0.5}, true)
}

// compareGo orders two non-NULL rowFn values of one type.
func compareGo(a, b any) int {
	switch x := a.(type) {
	case int64:
		y := b.(int64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case float64:
		return FloatOrder(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case []byte:
		return bytes.Compare(x, b.([]byte))
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func orderable(fn string, t arrow.DataType) error {
	t = types.Normalize(t)
	if types.IsNumeric(t) || types.IsString(t) || types.IsTemporal(t) || t.ID() == arrow.BOOL || t.ID() == arrow.BINARY || t.ID() == arrow.NULL {
		return nil
	}
	return fmt.Errorf("function %s cannot order %s", fn, sqlName(t))
}

// valueCast keeps a value's type but turns DECIMAL into DOUBLE so that
// values compare as numbers.
func valueCast(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.DECIMAL128 {
		return types.Double
	}
	return nil
}

// max_by(x, y) / min_by(x, y): x of the row with the largest (smallest)
// y; rows with a NULL y are skipped, x may be NULL.
func makeMaxBy(max bool) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		if err := orderable("max_by", args[1].Type); err != nil {
			return nil, err
		}
		rt := types.Normalize(args[0].Type)
		if rt.ID() == arrow.NULL {
			rt = types.Int
		}
		return tupleAgg(rt, []arrow.DataType{nil, valueCast(types.Normalize(args[1].Type))}, []bool{false, true}, func(rows [][]any) (any, error) {
			var best []any
			for _, r := range rows {
				if best == nil {
					best = r
					continue
				}
				c := compareGo(r[1], best[1])
				if (max && c > 0) || (!max && c < 0) {
					best = r
				}
			}
			if best == nil {
				return nil, nil
			}
			return best[0], nil
		}), nil
	}
}

// mode(x): the most frequent non-NULL value; of ties, the smallest, so
// the result does not depend on the order rows arrive in.
func makeMode(args []Arg, distinct bool) (*AggBound, error) {
	if err := orderable("mode", args[0].Type); err != nil {
		return nil, err
	}
	// mode(x, deterministic): Sluice's ties always go to the smallest
	// value, the largest under WITHIN GROUP (ORDER BY x DESC), whose DESC
	// the binder passes as a third constant.
	if _, err := constFlag("mode", args, 1); err != nil {
		return nil, err
	}
	desc, err := constFlag("mode", args, 2)
	if err != nil {
		return nil, err
	}
	rt := types.Normalize(args[0].Type)
	if rt.ID() == arrow.NULL {
		rt = types.Int
	}
	casts := make([]arrow.DataType, len(args))
	casts[0] = valueCast(rt)
	required := make([]bool, len(args))
	required[0] = true
	return tupleAgg(rt, casts, required, func(rows [][]any) (any, error) {
		counts := map[string]int{}
		var best any
		bestN := 0
		for _, r := range rows {
			k := fmt.Sprintf("%T:%v", r[0], r[0])
			counts[k]++
			n := counts[k]
			if n > bestN || (n == bestN && (compareGo(r[0], best) < 0) != desc && compareGo(r[0], best) != 0) {
				best, bestN = r[0], n
			}
		}
		return best, nil
	}), nil
}

// bit_and / bit_or / bit_xor over integers; NULL for no rows.
func makeBitAgg(op string) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		t := types.Normalize(args[0].Type)
		if t.ID() != arrow.NULL && !types.IsInteger(t) {
			return nil, fmt.Errorf("function bit_%s expects an integer, got %s", op, sqlName(t))
		}
		return tupleAgg(types.BigInt, []arrow.DataType{types.BigInt}, []bool{true}, func(rows [][]any) (any, error) {
			if len(rows) == 0 {
				return nil, nil
			}
			acc := rows[0][0].(int64)
			for _, r := range rows[1:] {
				x := r[0].(int64)
				switch op {
				case "and":
					acc &= x
				case "or":
					acc |= x
				default:
					acc ^= x
				}
			}
			return acc, nil
		}), nil
	}
}

// listagg(s[, delimiter]) / string_agg: the non-NULL strings joined in
// arrival order; NULL for none.
func makeListAgg(args []Arg, distinct bool) (*AggBound, error) {
	casts := []arrow.DataType{types.String, types.String}[:len(args)]
	delim := ""
	if len(args) == 2 {
		s, ok := constString(args[1])
		if !ok && !(args[1].Const && args[1].Value == nil) {
			return nil, fmt.Errorf("function listagg expects a constant delimiter")
		}
		delim = s
	}
	return tupleAgg(types.String, casts, []bool{true, false}, func(rows [][]any) (any, error) {
		if len(rows) == 0 {
			return nil, nil
		}
		parts := make([]string, len(rows))
		for i, r := range rows {
			parts[i] = r[0].(string)
		}
		return strings.Join(parts, delim), nil
	}), nil
}
