package functions_test

import (
	"testing"

	"sluice/internal/expr"
)

// The arithmetic kernels over 8192 BIGINT rows: the overflow checks must
// stay whole-array tests, so these stay close to a bare loop.
func BenchmarkArithInt64(b *testing.B) {
	batch, _, status := benchBatch(b, 8192)
	for _, c := range []struct {
		name string
		mk   func() (expr.Expr, error)
	}{
		{"add", func() (expr.Expr, error) { return expr.Call("+", status, status) }},
		{"sub", func() (expr.Expr, error) { return expr.Call("-", status, I(7)) }},
		{"mul", func() (expr.Expr, error) { return expr.Call("*", status, status) }},
		{"neg", func() (expr.Expr, error) { return expr.Call("negate", status) }},
		{"div", func() (expr.Expr, error) { return expr.Call("/", status, status) }},
		{"mod", func() (expr.Expr, error) { return expr.Call("%", status, I(7)) }},
		{"abs", func() (expr.Expr, error) { return expr.Call("abs", status) }},
	} {
		e, err := c.mk()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchEval(b, batch, e) })
	}
}
