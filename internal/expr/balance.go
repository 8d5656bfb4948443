package expr

import "fmt"

// LongChain is the number of operands from which AND/OR chains are built
// as balanced trees rather than left-deep ones. Below it the printed form
// (EXPLAIN) stays the familiar ((a AND b) AND c); above it a chain of n
// operands is log n deep instead of n, so every recursive walk over it
// (folding, pushdown, evaluation) stays shallow.
const LongChain = 32

// Balanced joins es with the associative binary operator name ("and" or
// "or"): left-deep below LongChain operands, balanced from there on. join
// builds one level; lo, mid, hi say which operands it joins
// (es[lo:mid] with es[mid:hi]) so callers can place errors.
func Balanced(es []Expr, join func(l, r Expr, lo, mid, hi int) (Expr, error)) (Expr, error) {
	if len(es) == 0 {
		return nil, fmt.Errorf("internal error: empty chain")
	}
	if len(es) < LongChain {
		acc := es[0]
		for i := 1; i < len(es); i++ {
			var err error
			if acc, err = join(acc, es[i], 0, i, i+1); err != nil {
				return nil, err
			}
		}
		return acc, nil
	}
	return balance(es, 0, len(es), join)
}

func balance(es []Expr, lo, hi int, join func(l, r Expr, lo, mid, hi int) (Expr, error)) (Expr, error) {
	if hi-lo == 1 {
		return es[lo], nil
	}
	mid := lo + (hi-lo+1)/2
	l, err := balance(es, lo, mid, join)
	if err != nil {
		return nil, err
	}
	r, err := balance(es, mid, hi, join)
	if err != nil {
		return nil, err
	}
	return join(l, r, lo, mid, hi)
}
