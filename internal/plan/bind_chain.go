package plan

import (
	"strings"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// bindChain binds a AND b AND c ... (or OR) by walking the left spine the
// parser builds in a loop rather than one recursion per operand; a long
// chain becomes a balanced tree (expr.Balanced), so the bound expression
// is log n deep. Short chains bind exactly as bindNode would, operand by
// operand, left-deep. With a hook, each inner node of the spine goes
// through it as bindNode's recursion would send it (the caller already
// sent top); one the hook takes is the chain's first operand.
func (eb *exprBinder) bindChain(top *sql.Binary) (expr.Expr, error) {
	var spine []*sql.Binary // spine[0] is top; spine[i+1] is spine[i].L
	var first expr.Expr     // bound by the hook, in place of operands[0]
	x := sql.Expr(top)
	for {
		b, ok := x.(*sql.Binary)
		if !ok || b.Op != top.Op {
			break
		}
		if len(spine) > 0 && eb.hook != nil {
			if err := eb.b.cancelled(); err != nil {
				return nil, err
			}
			be, handled, err := eb.hook(b)
			if err != nil {
				return nil, err
			}
			if handled {
				first = be
				break
			}
		}
		spine = append(spine, b)
		x = b.L
	}
	n := len(spine) + 1
	operands := make([]sql.Expr, n)
	operands[0] = x
	bindOperand := func(i int) (expr.Expr, error) {
		if i == 0 && first != nil {
			return first, nil
		}
		return eb.bind(operands[i])
	}
	for i, b := range spine {
		operands[n-1-i] = b.R
	}
	name := strings.ToLower(top.Op)
	// The operator between operands[i-1] and operands[i] is spine[n-1-i].
	join := func(l, r expr.Expr, _, mid, _ int) (expr.Expr, error) {
		e, err := expr.Call(name, l, r)
		if err != nil {
			return nil, errAt(spine[n-1-mid], "%v", err)
		}
		return e, nil
	}
	if n < expr.LongChain {
		acc, err := bindOperand(0)
		if err != nil {
			return nil, err
		}
		for i := 1; i < n; i++ {
			r, err := bindOperand(i)
			if err != nil {
				return nil, err
			}
			if acc, err = join(acc, r, 0, i, i+1); err != nil {
				return nil, err
			}
		}
		return acc, nil
	}
	bound := make([]expr.Expr, n)
	for i := range operands {
		be, err := bindOperand(i)
		if err != nil {
			return nil, err
		}
		bound[i] = be
	}
	return expr.Balanced(bound, join)
}
