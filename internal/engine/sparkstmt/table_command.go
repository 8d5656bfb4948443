package sparkstmt

import (
	"context"
	"fmt"

	"sluice/internal/catalog"
	"sluice/internal/physical"
	"sluice/internal/sql"
)

// TableCommand runs Spark's table commands (sql.TableCommand): each one
// its own file (refresh_table.go, repair_table.go, cache_table.go,
// truncate_table.go, analyze_table.go).
func (e *Runner) TableCommand(ctx context.Context, s *sql.TableCommand) (*Result, error) {
	switch s.Command {
	case sql.RefreshTable:
		return e.refreshTable(ctx, s)
	case sql.RepairTable:
		return e.repairTable(ctx, s)
	case sql.CacheTable, sql.UncacheTable:
		return e.cacheTable(ctx, s)
	case sql.TruncateTable:
		return e.truncateTable(ctx, s)
	case sql.AnalyzeTable:
		return e.analyzeTable(ctx, s)
	}
	return nil, fmt.Errorf("%s: %w", s.Command, physical.ErrNotSupported)
}

// commandTable is the catalog table a table command names.
func (e *Runner) commandTable(ctx context.Context, s *sql.TableCommand) (*catalog.Table, error) {
	stored, err := e.h.Qualify(ctx, s.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Command, err)
	}
	t, err := e.catalog.Table(stored)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Command, e.h.SuggestTable(ctx, s.Name, err))
	}
	return t, nil
}
