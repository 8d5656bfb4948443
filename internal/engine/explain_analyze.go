package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sluice/internal/exec"
	"sluice/internal/physical"
	"sluice/internal/sql"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

// explainAnalyze runs a SELECT and prints its physical plan with what
// each operator and scan did: the rows it sent on (a scan: the rows its
// readers decoded) and its own time, as DuckDB's EXPLAIN ANALYZE and
// Spark's SQL tab show them; an operator run inside the readers (a
// pushed filter) has no figures of its own. The result
// rows are counted and dropped. A write is refused: analysing it would
// perform it, which a user reading a plan does not expect.
func (e *Engine) explainAnalyze(ctx context.Context, s *sql.Explain) (*Result, error) {
	sel, ok := s.Stmt.(*sql.SelectStmt)
	if !ok {
		return nil, usererr.Errorf(usererr.Invalid, "EXPLAIN ANALYZE runs SELECT queries only, since it executes what it explains; use EXPLAIN for %s",
			strings.SplitN(statementName(s.Stmt), " ", 2)[0])
	}
	ctx = e.queryContext(ctx)
	n, err := e.planQuery(ctx, sel.Query)
	if err != nil {
		return nil, err
	}
	opts := e.compileOptions(ctx)
	p, err := physical.Compile(n, opts)
	if err != nil {
		return nil, err
	}
	defer func() { e.spills.Add(opts.Memory.Spills()) }()
	prof := exec.NewProfile()
	pctx := exec.WithProfile(ctx, prof)
	t0 := time.Now()
	if _, err := p.Prepare(pctx); err != nil {
		return nil, err
	}
	var rows int64
	out := exec.OutputFunc(func(_ context.Context, m exec.Message) error {
		if !m.IsWatermark() && m.Batch != nil {
			rows += m.Batch.NumRows()
		}
		return nil
	})
	if err := exec.Run(pctx, p.Root, exec.WatermarkEnd, out, nil); err != nil {
		return nil, fmt.Errorf("running query: %w", err)
	}
	total := time.Since(t0)
	lines := []string{"== Physical Plan (analyzed) =="}
	lines = append(lines, strings.Split(exec.ExplainProfiled(p.Root, prof), "\n")...)
	lines = append(lines, fmt.Sprintf("Total: %s in %s", stream.Count(rows, "row"), exec.FormatDuration(total)))
	return planResult(lines), nil
}
