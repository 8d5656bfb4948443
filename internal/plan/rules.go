package plan

import (
	"context"
	"errors"
	"fmt"
)

// Rule rewrites one node. Apply returns the node unchanged (changed ==
// false) when the rule does not apply there.
type Rule interface {
	Name() string
	Apply(n Node) (out Node, changed bool, err error)
}

// SubqueryRules run first, to a fixpoint of their own: every Apply the
// binder made for a subquery becomes joins before any rule of Rules can
// move a condition that still reads an outer query.
var SubqueryRules = []Rule{
	DecorrelateExists{},
	DecorrelateIn{},
	DecorrelateScalar{},
	DecorrelateExistsValue{},
	DecorrelateInValue{},
	DecorrelateCompare{},
	DecorrelateInline{},
}

// Rules is the one ordered list of rewrite rules. Each runs bottom-up over
// the whole tree until none changes anything.
var Rules = []Rule{
	FoldConstants{},
	MergeFilters{},
	PushFilterThroughProject{},
	PushFilterThroughEventTime{},
	PushFilterIntoJoin{},
	PushFilterIntoScan{},
	LimitSortToTopN{},
}

// ScanRules run once, in order, after the scans were finalized: they read
// what each source made of the projection and filter pushed into it.
var ScanRules = []Rule{
	PushAggregateIntoScan{},
	PushLimitIntoScan{},
}

// maxPasses bounds the fixpoint loop; rules only move filters down, fold
// constants and rewrite subqueries (one pass per nesting level at most,
// when the inner subquery is of a kind a later rule owns), so a handful
// of passes always suffices.
const maxPasses = 20

// Optimize is OptimizeContext without cancellation.
func Optimize(n Node) (Node, error) { return OptimizeContext(context.Background(), n) }

// OptimizeContext applies SubqueryRules, then Rules, each to a fixpoint,
// prunes unused columns down to the scans, pushes projections and filters
// into the sources, then applies ScanRules (aggregates into the sources
// that can compute them). It stops with ctx's error (wrapped) once ctx is done, checked before
// each rule visits a node, so a huge plan can be interrupted.
func OptimizeContext(ctx context.Context, n Node) (Node, error) {
	n, err := fixpoint(ctx, n, SubqueryRules)
	if err != nil {
		return nil, err
	}
	if err := leftApply(n); err != nil {
		return nil, err
	}
	if n, err = fixpoint(ctx, n, Rules); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n, err = PruneColumns(n)
	if err != nil {
		return nil, fmt.Errorf("pruning columns: %w", err)
	}
	if err := finalizeScans(n); err != nil {
		return nil, err
	}
	for _, r := range ScanRules {
		if n, _, err = transformUp(ctx, n, r); err != nil {
			return nil, fmt.Errorf("optimizer rule %s: %w", r.Name(), err)
		}
	}
	return n, nil
}

// fixpoint applies rules, in order, until none changes anything.
func fixpoint(ctx context.Context, n Node, rules []Rule) (Node, error) {
	for pass := 0; ; pass++ {
		if pass == maxPasses {
			return nil, fmt.Errorf("internal error: optimizer did not converge")
		}
		changed := false
		for _, r := range rules {
			out, c, err := transformUp(ctx, n, r)
			if err != nil {
				var user *Error
				if errors.As(err, &user) {
					return nil, err // the query's fault: no rule name needed
				}
				return nil, fmt.Errorf("optimizer rule %s: %w", r.Name(), err)
			}
			n, changed = out, changed || c
		}
		if !changed {
			return n, nil
		}
	}
}

// transformUp applies r to every node, children first.
func transformUp(ctx context.Context, n Node, r Rule) (Node, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	kids := n.Children()
	changed := false
	if len(kids) > 0 {
		nk := make([]Node, len(kids))
		for i, k := range kids {
			out, c, err := transformUp(ctx, k, r)
			if err != nil {
				return nil, false, err
			}
			nk[i] = out
			changed = changed || c
		}
		if changed {
			var err error
			if n, err = n.WithChildren(nk...); err != nil {
				return nil, false, err
			}
		}
	}
	out, c, err := r.Apply(n)
	if err != nil {
		return nil, false, err
	}
	return out, changed || c, nil
}

func finalizeScans(n Node) error {
	if s, ok := n.(*Scan); ok {
		return s.Finalize()
	}
	for _, c := range n.Children() {
		if err := finalizeScans(c); err != nil {
			return err
		}
	}
	return nil
}
