package plan

import "sluice/internal/expr"

// FoldConstants evaluates constant sub-expressions once at planning time
// (1 + 1, lower('ABC'), a timestamp literal minus an interval).
type FoldConstants struct{}

// Name of the rule.
func (FoldConstants) Name() string { return "fold_constants" }

// Apply folds every expression of n.
func (FoldConstants) Apply(n Node) (Node, bool, error) {
	changed := false
	out, err := mapExprs(n, func(e expr.Expr) (expr.Expr, error) {
		f, err := expr.Fold(e)
		if err != nil {
			// A constant that fails (1/0 in ANSI, a bad cast) fails at run
			// time with the same message; leave it.
			return e, nil
		}
		// Fold returns e itself when it folded nothing; comparing the
		// printed forms instead costs a full print per node and pass.
		if f != e {
			changed = true
		}
		return f, nil
	})
	if err != nil || !changed {
		return n, false, err
	}
	return out, true, nil
}
