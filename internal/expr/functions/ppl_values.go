package functions

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_values(x) is PPL's VALUES: the distinct non-NULL values as strings,
// sorted. Spark's collect_set keeps x's type and no order.
func makePPLValues(args []Arg, distinct bool) (*AggBound, error) {
	return tupleAgg(types.Array(types.String), []arrow.DataType{types.String}, []bool{true}, func(rows [][]any) (any, error) {
		seen := map[string]bool{}
		out := []string{}
		for _, r := range rows {
			s := r[0].(string)
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		sort.Strings(out)
		vals := make([]any, len(out))
		for i, s := range out {
			vals[i] = s
		}
		return vals, nil
	}), nil
}

// pplListMax is how many values PPL's LIST keeps.
const pplListMax = 100

// ppl_list(x) is PPL's LIST: the non-NULL values as strings, duplicates
// kept, at most 100 of them.
func makePPLList(args []Arg, distinct bool) (*AggBound, error) {
	return tupleAgg(types.Array(types.String), []arrow.DataType{types.String}, []bool{true}, func(rows [][]any) (any, error) {
		vals := []any{}
		for _, r := range rows {
			if len(vals) == pplListMax {
				break
			}
			vals = append(vals, r[0])
		}
		return vals, nil
	}), nil
}
