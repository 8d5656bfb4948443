package functions

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_array is PPL's array(...): values of different kinds make an array
// of strings (array(1, 'demo') is ["1","demo"]), where Spark's array
// casts the string to the number's type.
func bindPPLArray(args []Arg) (*Bound, error) {
	return bindArray(pplStringsIfMixed(args))
}

// pplStringsIfMixed gives args typed STRING when a string is among other
// kinds of values, PPL's least restrictive type; else args as they are.
func pplStringsIfMixed(args []Arg) []Arg {
	str, other := false, false
	for _, a := range args {
		switch {
		case a.Type.ID() == arrow.NULL:
		case types.IsString(a.Type):
			str = true
		default:
			other = true
		}
	}
	if !str || !other {
		return args
	}
	out := make([]Arg, len(args))
	for i, a := range args {
		out[i] = Arg{Type: types.String}
		if a.Type.ID() == arrow.NULL {
			out[i].Type = a.Type
		}
	}
	return out
}
