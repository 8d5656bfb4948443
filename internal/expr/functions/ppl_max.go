package functions

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_max(v, ...) and ppl_min(v, ...) are PPL's MAX and MIN with more
// than one argument (statistical.md): the largest or smallest non-NULL
// value, where every string ranks above every number
// (MAX(age, 'John') is 'John'). Without strings, or with only strings,
// they are greatest and least; mixed, the answer is a string.
func bindPPLMaxMin(max bool) Binder {
	fn := "ppl_min"
	if max {
		fn = "ppl_max"
	}
	return func(args []Arg) (*Bound, error) {
		str, num := false, false
		params := make([]param, len(args))
		for i, a := range args {
			switch {
			case types.IsString(a.Type):
				str, params[i] = true, pString
			case types.IsInteger(a.Type):
				num, params[i] = true, pInt
			case types.IsNumeric(a.Type):
				num, params[i] = true, pDouble
			case a.Type.ID() == arrow.NULL:
				params[i] = pString
			default:
				return bindGreatest(max)(args)
			}
		}
		if !str || !num {
			return bindGreatest(max)(args)
		}
		return rowFnNulls(fn, types.String, params, func(v []any) (any, error) {
			var best any
			for _, x := range v {
				if x != nil && (best == nil || pplRank(x, best) == max) {
					best = x
				}
			}
			switch b := best.(type) {
			case int64:
				return strconv.FormatInt(b, 10), nil
			case float64:
				return types.FormatDouble(b), nil
			}
			return best, nil
		})(args)
	}
}

// pplRank reports whether a ranks above b: strings above numbers,
// strings by bytes, numbers by value.
func pplRank(a, b any) bool {
	as, aStr := a.(string)
	bs, bStr := b.(string)
	switch {
	case aStr && bStr:
		return as > bs
	case aStr != bStr:
		return aStr
	}
	x, _ := toFloat(a)
	y, _ := toFloat(b)
	return x > y
}

// ppl_coalesce is PPL's coalesce: values of different kinds become
// strings (coalesce(employer, balance, 'fallback')), where Spark's
// casts the string to the number's type.
func bindPPLCoalesce(args []Arg) (*Bound, error) {
	return bindCoalesce(pplStringsIfMixed(args))
}
