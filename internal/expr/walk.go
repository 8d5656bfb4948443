package expr

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// rebuilder is implemented by every node: a copy with other children of
// the same types. Bound kernels are reused, so no rebinding happens.
type rebuilder interface {
	withChildren(ch []Expr) Expr
}

// Walk visits e and its descendants depth-first, parents first; fn
// returning false skips a node's children.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, c := range e.Children() {
		Walk(c, fn)
	}
}

// Columns returns the distinct column indexes e reads, sorted.
func Columns(e Expr) []int {
	seen := map[int]bool{}
	Walk(e, func(x Expr) bool {
		if c, ok := x.(*Column); ok {
			seen[c.Index] = true
		}
		return true
	})
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// Transform rebuilds e bottom-up, replacing each node by fn(node) (whose
// children are already transformed). fn must keep types unchanged.
func Transform(e Expr, fn func(Expr) Expr) Expr {
	ch := e.Children()
	if len(ch) > 0 {
		nc := make([]Expr, len(ch))
		changed := false
		for i, c := range ch {
			nc[i] = Transform(c, fn)
			changed = changed || nc[i] != c
		}
		if changed {
			if r, ok := e.(rebuilder); ok {
				e = r.withChildren(nc)
			}
		}
	}
	return fn(e)
}

// Remap rewrites column indexes through mapping (after projection
// pushdown); indexes not in mapping stay as they are.
func Remap(e Expr, mapping map[int]int) Expr {
	return Transform(e, func(x Expr) Expr {
		if c, ok := x.(*Column); ok {
			if to, ok := mapping[c.Index]; ok && to != c.Index {
				cc := *c
				cc.Index = to
				return &cc
			}
		}
		return x
	})
}

// SplitConjuncts splits a AND b AND c into [a, b, c].
func SplitConjuncts(e Expr) []Expr {
	if e == nil {
		return nil
	}
	if c, ok := e.(*CallExpr); ok && c.Name == "and" {
		return append(SplitConjuncts(c.Args[0]), SplitConjuncts(c.Args[1])...)
	}
	return []Expr{e}
}

// AndAll joins predicates with AND (see Balanced); nil for none.
func AndAll(es []Expr) Expr {
	if len(es) == 0 {
		return nil
	}
	acc, err := Balanced(es, func(l, r Expr, _, _, _ int) (Expr, error) { return Call("and", l, r) })
	if err != nil {
		// Only non-BOOLEAN predicates fail, which the binder rejects earlier.
		panic(fmt.Sprintf("expr.AndAll: %v", err))
	}
	return acc
}

// IsConstant reports whether e reads no column and calls no volatile
// function (now(), rand(), uuid()), so it can be evaluated once.
func IsConstant(e Expr) bool {
	constant := true
	Walk(e, func(x Expr) bool {
		switch n := x.(type) {
		case *Column, *LambdaVar, *OuterRef:
			constant = false
		case *CallExpr:
			if n.def.Volatile {
				constant = false
			}
		}
		return constant
	})
	return constant
}

// Fold evaluates constant subtrees once, replacing them by literals. It
// returns e itself when nothing was folded.
func Fold(e Expr) (Expr, error) {
	var ferr error
	out := Transform(e, func(x Expr) Expr {
		if ferr != nil {
			return x
		}
		if _, ok := x.(*Literal); ok || !foldable(x) {
			return x
		}
		v, err := evalOne(context.Background(), x)
		if err != nil {
			ferr = fmt.Errorf("evaluating %s: %w", x, err)
			return x
		}
		return newLiteral(v)
	})
	if ferr != nil {
		return nil, ferr
	}
	return out, nil
}

// foldable is IsConstant for a node whose children Fold already visited:
// a constant child is a literal by then, so looking one level down is
// enough (IsConstant would walk the whole subtree at every node, which is
// quadratic on a long chain).
func foldable(x Expr) bool {
	switch n := x.(type) {
	case *Column:
		return false
	case *CallExpr:
		if n.def.Volatile {
			return false
		}
	}
	for _, c := range x.Children() {
		if _, ok := c.(*Literal); !ok {
			return false
		}
	}
	return true
}

var emptySchema = arrow.NewSchema(nil, nil)

// evalOne evaluates e over one row with no columns.
func evalOne(ctx context.Context, e Expr) (arrow.Array, error) {
	batch := array.NewRecordBatch(emptySchema, nil, 1)
	defer batch.Release()
	return e.Eval(ctx, batch)
}

// EvalScalar evaluates an expression that reads no column and returns
// its value as types.ValueAt gives it (nil for NULL).
func EvalScalar(ctx context.Context, e Expr) (any, error) {
	if len(Columns(e)) > 0 {
		return nil, fmt.Errorf("%s is not a constant expression", e)
	}
	v, err := evalOne(ctx, e)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return types.ValueAt(v, 0), nil
}

// IsFunction reports whether name is a known function of any kind
// (scalar, aggregate, generator or window), operators excluded.
func IsFunction(name string) bool {
	d, ok := functions.Lookup(name)
	return ok && !d.Operator
}

// IsAggregate reports whether name is an aggregate function.
func IsAggregate(name string) bool { return functions.Is(name, functions.Aggregate) }

// FunctionNames lists every function name callers may write (operators
// excluded), for did-you-mean suggestions.
func FunctionNames() []string {
	var out []string
	for _, d := range functions.All() {
		if !d.Operator {
			out = append(out, d.Name)
			out = append(out, d.Aliases...)
		}
	}
	return out
}
