package functions

import (
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// The ordered-set aggregates percentile_cont(p) and percentile_disc(p)
// WITHIN GROUP (ORDER BY x [DESC]) reach the registry as (x, p[, desc]):
// the binder puts x first and adds a constant TRUE for DESC. Both answer
// DOUBLE (an ARRAY of DOUBLE for an ARRAY of percentages), NULL for a
// group with no non-NULL x, as Spark does.

// percentages reads a constant percentage or ARRAY of them, each in [0, 1].
func percentages(fn string, a Arg) (ps []float64, single bool, err error) {
	if !a.Const {
		return nil, false, fmt.Errorf("function %s expects a constant percentage", fn)
	}
	single = true
	switch v := a.Value.(type) {
	case []any:
		single = false
		for _, e := range v {
			f, ok := asFloat(e)
			if !ok {
				f, ok = toFloat(e)
			}
			if !ok {
				return nil, false, fmt.Errorf("function %s expects numeric percentages", fn)
			}
			ps = append(ps, f)
		}
	case decimal128.Num:
		ps = []float64{v.ToFloat64(a.Type.(*arrow.Decimal128Type).Scale)}
	default:
		f, ok := asFloat(v)
		if !ok {
			return nil, false, fmt.Errorf("function %s expects a numeric percentage, got %v", fn, v)
		}
		ps = []float64{f}
	}
	for _, p := range ps {
		if p < 0 || p > 1 || math.IsNaN(p) {
			return nil, false, fmt.Errorf("function %s: percentage %v must be between 0.0 and 1.0", fn, p)
		}
	}
	return ps, single, nil
}

// constFlag reads an optional trailing constant BOOLEAN argument.
func constFlag(fn string, args []Arg, i int) (bool, error) {
	if i >= len(args) {
		return false, nil
	}
	b, ok := args[i].Value.(bool)
	if !args[i].Const || !ok {
		return false, fmt.Errorf("function %s: argument %d must be a constant BOOLEAN", fn, i+1)
	}
	return b, nil
}

// makeOrderedPercentile binds percentile_cont (linear interpolation
// between the two nearest ranks, as percentile) or percentile_disc (the
// first value, in the given order, whose cumulative distribution reaches
// p: the value at rank ceil(p * n), the first for p = 0).
func makeOrderedPercentile(fn string, discrete bool) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		if distinct {
			return nil, fmt.Errorf("function %s does not take DISTINCT", fn)
		}
		ps, single, err := percentages(fn, args[1])
		if err != nil {
			return nil, err
		}
		desc, err := constFlag(fn, args, 2)
		if err != nil {
			return nil, err
		}
		casts, err := doubles(fn, args[:1], 1)
		if err != nil {
			return nil, err
		}
		casts = append(casts, make([]arrow.DataType, len(args)-1)...)
		rt := types.Double
		if !single {
			rt = types.Array(types.Double)
		}
		required := make([]bool, len(args))
		required[0] = true
		return tupleAgg(rt, casts, required, func(rows [][]any) (any, error) {
			if len(rows) == 0 {
				return nil, nil
			}
			xs := make([]float64, len(rows))
			for i, r := range rows {
				xs[i] = r[0].(float64)
			}
			sort.Float64s(xs)
			if desc {
				for i, j := 0, len(xs)-1; i < j; i, j = i+1, j-1 {
					xs[i], xs[j] = xs[j], xs[i]
				}
			}
			at := percentileOf
			if discrete {
				at = discreteAt
			}
			if single {
				return at(xs, ps[0]), nil
			}
			out := make([]any, len(ps))
			for i, p := range ps {
				out[i] = at(xs, p)
			}
			return out, nil
		}), nil
	}
}

// discreteAt is the value of sorted at rank ceil(p * n) (1-based).
func discreteAt(sorted []float64, p float64) float64 {
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}
