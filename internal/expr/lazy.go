package expr

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr/functions"
)

// Conditional functions evaluate their arguments over whole batches,
// like every call, which would run an argument on rows whose result
// does not depend on it: b <> 0 AND a / b > 1 would divide by zero on
// the rows b <> 0 already decided. Spark never evaluates those, and
// under ANSI arithmetic the difference is an error. So when an argument
// of a conditional fails, it is evaluated again over only the rows that
// need it (the other rows read NULL, which the function ignores there);
// an error that remains is a real one. Batches without errors pay
// nothing.

// needFunc reports whether row i of argument k can change the result,
// given the arguments before it.
type needFunc func(k int, prev []arrow.Array, i int) bool

var lazyArgs = map[string]needFunc{
	// AND: FALSE on the left decides the row.
	"and": func(k int, prev []arrow.Array, i int) bool {
		v, ok := boolAt(prev[0], i)
		return !ok || v
	},
	// OR: TRUE on the left decides the row.
	"or": func(k int, prev []arrow.Array, i int) bool {
		v, ok := boolAt(prev[0], i)
		return !ok || !v
	},
	// if(c, a, b): a where c is TRUE, b elsewhere.
	"if": func(k int, prev []arrow.Array, i int) bool {
		v, ok := boolAt(prev[0], i)
		return (ok && v) == (k == 1)
	},
	// coalesce: an argument counts only where all before it are NULL.
	"coalesce": func(k int, prev []arrow.Array, i int) bool {
		for _, p := range prev {
			if p.IsValid(i) {
				return false
			}
		}
		return true
	},
}

func boolAt(a arrow.Array, i int) (v, ok bool) {
	b, isBool := a.(*array.Boolean)
	if !isBool || b.IsNull(i) {
		return false, false
	}
	return b.Value(i), true
}

// evalNeeded evaluates args[k:] of a conditional call whose argument k
// failed with err, each over only the rows that need it; done holds the
// arguments before k. It returns err when every row needs argument k.
func evalNeeded(ctx context.Context, batch arrow.RecordBatch, need needFunc, args []Expr, done []arrow.Array, k int, err error) ([]arrow.Array, error) {
	n := int(batch.NumRows())
	out := append([]arrow.Array(nil), done...)
	fail := func(e error) ([]arrow.Array, error) {
		for _, a := range out[len(done):] {
			a.Release()
		}
		return nil, e
	}
	for j := k; j < len(args); j++ {
		var rows []int32
		for i := 0; i < n; i++ {
			if need(j, out[:j], i) {
				rows = append(rows, int32(i))
			}
		}
		if len(rows) == n {
			if j == k {
				return fail(err)
			}
			v, e := args[j].Eval(ctx, batch)
			if e != nil {
				return fail(e)
			}
			out = append(out, v)
			continue
		}
		if len(rows) == 0 {
			out = append(out, functions.Nulls(args[j].Type(), n))
			continue
		}
		sub, e := takeRows(ctx, batch, rows)
		if e != nil {
			return fail(e)
		}
		part, e := args[j].Eval(ctx, sub)
		sub.Release()
		if e != nil {
			return fail(e)
		}
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = -1
		}
		for p, r := range rows {
			idx[r] = int32(p)
		}
		full, e := functions.Take(ctx, part, idx)
		part.Release()
		if e != nil {
			return fail(e)
		}
		out = append(out, full)
	}
	return out, nil
}
