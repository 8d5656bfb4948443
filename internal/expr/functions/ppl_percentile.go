package functions

import (
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// ppl_percentile(x, p) is PPL's PERCENTILE (percentile_approx, median,
// perc<p>, p<p>): p in 0..100, the answer OpenSearch's t-digest gives
// while each value is its own centroid, which is always one of the
// values (median of 28, 32, 33, 36 is 33). Spark's percentile
// interpolates (32.5) and its approx_percentile takes the lower (32).
// OpenSearch compresses large groups, so there it can differ slightly.
// The result keeps x's type for integers; other numbers are DOUBLE.
func makePPLPercentile(args []Arg, distinct bool) (*AggBound, error) {
	if len(args) != 2 || !args[1].Const {
		return nil, fmt.Errorf("function percentile expects a constant percentage")
	}
	p, ok := toFloat(args[1].Value)
	if d, isDec := args[1].Value.(decimal128.Num); isDec {
		p, ok = d.ToFloat64(args[1].Type.(*arrow.Decimal128Type).Scale), true
	}
	if !ok || p < 0 || p > 100 || math.IsNaN(p) {
		return nil, fmt.Errorf("function percentile: percentage %v must be between 0 and 100", args[1].Value)
	}
	t := types.Normalize(args[0].Type)
	if t.ID() != arrow.NULL && !types.IsNumeric(t) {
		return nil, fmt.Errorf("function percentile expects numbers, got %s", sqlName(t))
	}
	if types.IsInteger(t) {
		return tupleAgg(types.BigInt, []arrow.DataType{types.BigInt, nil}, []bool{true, false}, func(rows [][]any) (any, error) {
			xs := make([]int64, len(rows))
			for i, r := range rows {
				xs[i] = r[0].(int64)
			}
			sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
			k, ok := digestIndex(len(xs), p/100)
			if !ok {
				return nil, nil
			}
			return xs[k], nil
		}), nil
	}
	return tupleAgg(types.Double, []arrow.DataType{types.Double, nil}, []bool{true, false}, func(rows [][]any) (any, error) {
		xs := make([]float64, len(rows))
		for i, r := range rows {
			xs[i] = r[0].(float64)
		}
		sort.Slice(xs, func(i, j int) bool { return FloatOrder(xs[i], xs[j]) < 0 })
		k, ok := digestIndex(len(xs), p/100)
		if !ok {
			return nil, nil
		}
		return xs[k], nil
	}), nil
}

// digestIndex is which of n sorted singleton centroids t-digest's
// MergingDigest.quantile(q) returns: the minimum below rank 1, the
// maximum above n-1, else the centroid whose half-unit sphere holds the
// rank q*n.
func digestIndex(n int, q float64) (int, bool) {
	if n == 0 {
		return 0, false
	}
	index := q * float64(n)
	switch {
	case n == 1 || index < 1:
		return 0, true
	case index > float64(n-1):
		return n - 1, true
	}
	i := int(math.Floor(index - 0.5))
	if index < float64(i+1) {
		return i, true
	}
	return i + 1, true
}
