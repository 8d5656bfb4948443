package engine

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/exec"
	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/sql"
)

// explain prints the logical plan (after rules) and the physical plan as
// trees, one line per row, without running the query.
func (e *Engine) explain(ctx context.Context, s *sql.Explain) (*Result, error) {
	if s.Mode == sql.ExplainAnalyze {
		return e.explainAnalyze(ctx, s)
	}
	ctx = e.queryContext(ctx)
	var n plan.Node
	var header string
	switch st := s.Stmt.(type) {
	case *sql.InsertStream:
		return streamsResult(e.streams().Explain(ctx, st))
	case *sql.CreateMaterializedView:
		return flintResult(e.flint().ExplainMView(ctx, st))
	case *sql.SelectStmt:
		var err error
		if n, err = e.planQuery(ctx, st.Query); err != nil {
			return nil, err
		}
	case *sql.Insert:
		t, err := e.catalog.Table(st.Table)
		if err != nil {
			return nil, err
		}
		if t, n, _, err = e.insertPlan(ctx, t, st, true); err != nil {
			return nil, err
		}
		header = fmt.Sprintf("Insert into %s (USING %s)", t.Spec.Name, t.Spec.Using)
		if st.Overwrite {
			header = fmt.Sprintf("Insert overwrite %s (USING %s)", t.Spec.Name, t.Spec.Using)
		}
	default:
		return nil, fmt.Errorf("EXPLAIN %s: %w", statementName(s.Stmt), ErrNotSupported)
	}
	p, err := physical.Compile(n, e.compileOptions(ctx))
	if err != nil {
		return nil, err
	}
	// List the scans, build sides included, so the plan shows the files
	// and what pruning left out; read nothing.
	if _, err := exec.ListScans(ctx, p.Root, nil); err != nil {
		return nil, err
	}
	for _, l := range p.Lookups {
		if _, err := exec.ListScans(ctx, l.Build, nil); err != nil {
			return nil, err
		}
	}
	var lines []string
	lines = append(lines, "== Logical Plan ==")
	logical := strings.TrimRight(plan.Format(n), "\n")
	phys := exec.Explain(p.Root)
	if header != "" {
		logical = header + "\n" + indent(logical)
		phys = header + "\n" + indent(phys)
	}
	lines = append(lines, strings.Split(logical, "\n")...)
	lines = append(lines, "== Physical Plan ==")
	lines = append(lines, strings.Split(phys, "\n")...)
	return planResult(lines), nil
}

func indent(s string) string {
	ls := strings.Split(s, "\n")
	for i := range ls {
		ls[i] = "  " + ls[i]
	}
	return strings.Join(ls, "\n")
}

// planResult is an EXPLAIN's answer: one "plan" row per line.
func planResult(lines []string) *Result {
	rows := make([][]string, len(lines))
	for i, l := range lines {
		rows[i] = []string{l}
	}
	return stringRows([]string{"plan"}, rows)
}
