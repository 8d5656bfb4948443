// Package expr compiles bound SQL expressions into vectorized kernels over
// Arrow arrays.
//
// The binder (internal/plan) resolves names and builds expressions with the
// constructors below; exec evaluates them batch by batch:
//
//	status := expr.Col(3, "status", types.Int)
//	five, _ := expr.Lit(int64(500), types.BigInt)
//	pred, _ := expr.Call(">=", status, five) // INT widened to BIGINT
//	mask, _ := pred.Eval(ctx, batch)         // a BOOLEAN array, NULL where status is NULL
//
// Aggregates are bound the same way and fold rows into dense group ids:
//
//	n, _ := expr.NewAggregate("count", []expr.Expr{clientip}, true) // count(DISTINCT clientip)
//	acc := n.NewAccumulator()
//	_ = acc.Update(groupIDs, []arrow.Array{ips}) // per batch, args evaluated from n.Args
//	counts, _ := acc.Result(numGroups)           // BIGINT, one per group
//
// Semantics follow Spark SQL's non-ANSI mode: three-valued logic, NULL
// for division by zero, `/` on integers gives DOUBLE, implicit casts
// widen INT to BIGINT to DECIMAL to DOUBLE, and text compared with a
// number or time is cast to it (a bad constant is an error at bind
// time, a bad value in data is NULL). An explicit CAST fails on a bad
// value; TRY_CAST gives NULL. Every function is listed in
// functions/registry.go.
//
// Higher-order functions (lambda.go) pass lambda parameters in the
// evaluation context, not as batch columns, so column pruning never sees
// them. Aggregates have mergeable, snapshottable accumulators; the
// functions themselves live in internal/expr/functions, whose registry.go
// lists them all.
package expr

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
)

// Expr is a bound, type-checked expression.
//
// Eval returns an array with exactly batch.NumRows() elements (constants
// are expanded), owned by the caller. Eval is safe for concurrent use on
// different batches: compiled state (regexps, analyzers) is immutable.
type Expr interface {
	Type() arrow.DataType
	Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error)
	// String prints the expression in SQL for EXPLAIN, e.g. (status >= 500).
	String() string
	Children() []Expr
}

// WithNow fixes the current time for one query: now(), current_timestamp
// and current_date return it for every row. Without it they use the wall
// clock at evaluation.
func WithNow(ctx context.Context, t time.Time) context.Context {
	return functions.WithNow(ctx, t)
}

// WithDatabase sets the session's database for current_database().
func WithDatabase(ctx context.Context, db string) context.Context {
	return functions.WithDatabase(ctx, db)
}

// WithUser sets the user current_user() names (the server's caller).
func WithUser(ctx context.Context, name string) context.Context {
	return functions.WithUser(ctx, name)
}

// Now is the time WithNow fixed in ctx, or the wall clock.
func Now(ctx context.Context) time.Time {
	return functions.Now(ctx)
}
