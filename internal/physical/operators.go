package physical

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/exec"
	"sluice/internal/expr"
	"sluice/internal/plan"
	"sluice/internal/types"
)

// newOperator builds the physical operator for a single-input node that
// does not run inside scan workers.
func newOperator(n plan.Node) (exec.Operator, error) {
	switch t := n.(type) {
	case *plan.Limit:
		return exec.NewLimit(t.Input.Schema(), t.N, t.Offset), nil
	case *plan.Aggregate:
		names := append(append([]string{}, t.KeyNames...), t.AggNames...)
		return exec.NewHashAggregate(t.Keys, names, t.Aggs)
	case *plan.Sort:
		return exec.NewSort(t.Input.Schema(), sortKeys(t.Keys)), nil
	case *plan.TopN:
		return exec.NewTopN(t.Input.Schema(), sortKeys(t.Keys), t.N, t.Offset), nil
	case *plan.SessionAssign:
		return exec.NewSessionWindow(t.Input.Schema(), t.Keys, t.TS, t.Gap, "__session")
	case *plan.Window:
		return exec.NewWindow(t.Input.Schema(), t.PartitionBy, sortKeys(t.OrderBy), t.Funcs, t.Frames, t.Names)
	case *plan.Distinct:
		return exec.NewDistinct(t.Input.Schema()), nil
	case *plan.Explode:
		in := t.Input.Schema()
		exprs := make([]expr.Expr, 0, in.NumFields()+1)
		names := make([]string, 0, in.NumFields()+len(t.Names))
		for i, f := range in.Fields() {
			exprs = append(exprs, expr.Col(i, f.Name, f.Type))
			names = append(names, f.Name)
		}
		exprs = append(exprs, t.Gen)
		names = append(names, t.Names...)
		return exec.NewGenerate(exprs, names, in.NumFields(), t.Outer, t.Position)
	}
	return nil, fmt.Errorf("%T: %w", n, ErrNotSupported)
}

func sortKeys(ks []plan.SortKey) []exec.SortKey {
	out := make([]exec.SortKey, len(ks))
	for i, k := range ks {
		out[i] = exec.SortKey{Expr: k.Expr, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}

// newJoin builds the hash join over build (the right side's rows).
// Keys of different types meet at their common type, as in Spark.
func newJoin(ctx context.Context, j *plan.Join, build []arrow.RecordBatch) (*exec.HashJoin, error) {
	kind := map[plan.JoinKind]exec.JoinKind{plan.InnerJoin: exec.InnerJoin, plan.LeftJoin: exec.LeftJoin,
		plan.RightJoin: exec.RightJoin, plan.FullJoin: exec.FullJoin, plan.CrossJoin: exec.InnerJoin,
		plan.SemiJoin: exec.SemiJoin, plan.AntiJoin: exec.AntiJoin, plan.NullAwareAntiJoin: exec.NullAwareAntiJoin}[j.Kind]
	lk := append([]expr.Expr{}, j.LeftKeys...)
	rk := append([]expr.Expr{}, j.RightKeys...)
	for i := range lk {
		lt, rt := lk[i].Type(), rk[i].Type()
		if arrow.TypeEqual(lt, rt) {
			continue
		}
		c, ok := types.Common(lt, rt)
		if !ok {
			return nil, fmt.Errorf("join keys %s (%s) and %s (%s) have no common type", lk[i], types.SQLName(lt), rk[i], types.SQLName(rt))
		}
		var err error
		if !arrow.TypeEqual(lt, c) {
			if lk[i], err = expr.Cast(lk[i], c); err != nil {
				return nil, err
			}
		}
		if !arrow.TypeEqual(rt, c) {
			if rk[i], err = expr.Cast(rk[i], c); err != nil {
				return nil, err
			}
		}
	}
	return exec.NewHashJoin(ctx, kind, j.Left.Schema(), j.Right.Schema(), build, lk, rk, j.Residual)
}
