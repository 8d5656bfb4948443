//go:build !exprnodes

package file

// Until internal/expr exports its node types (Column, Literal, CallExpr,
// SplitConjuncts, ...), pushed filters are recorded for EXPLAIN but do not
// prune. pruning.go, built with -tags exprnodes, is the real thing.

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/format"
)

type statPred struct {
	col  string
	op   string
	vals []any
}

func onTable(pred expr.Expr, columns []string, table *arrow.Schema) expr.Expr { return nil }

func andFilters(prev, pred expr.Expr) expr.Expr {
	if prev == nil {
		return pred
	}
	return prev
}

func splitFilter(pred expr.Expr, table *arrow.Schema, isPart []bool) ([]expr.Expr, []statPred) {
	return nil, nil
}

func rowGroupFilter(preds []statPred) func(format.RowGroupStats) bool { return nil }

func (s *Source) pruneFiles(ctx context.Context, files []fileEntry) ([]fileEntry, error) {
	return files, nil
}

func (s *Source) partitionPrefixes(ctx context.Context) ([]string, error) { return nil, nil }
