package flint

import (
	"context"
	"fmt"

	"sluice/internal/sql"
)

// Flint runs the statements of materialized views and Flint indexes on a
// Host. It keeps no state of its own (definitions live in the Host's
// catalog, runs in the Host), so New is cheap and any number may share a
// Host.
type Flint struct {
	h Host
}

// New is Flint over h.
func New(h Host) *Flint { return &Flint{h: h} }

// Result is a statement's answer: Message, or, when Columns is set, rows
// of strings (SHOW, DESCRIBE, EXPLAIN) the Host prints redacted.
type Result struct {
	Message string
	Columns []string
	Rows    [][]string
}

// message is a Result of one message, redacted (sql.RedactText) as every
// message the engine returns is.
func message(format string, args ...any) *Result {
	return &Result{Message: sql.RedactText(fmt.Sprintf(format, args...))}
}

// Execute runs st when it is one of Flint's: a materialized view's or a
// Flint index's statement, names already qualified by the caller. ok is
// false for any other statement.
func (f *Flint) Execute(ctx context.Context, st sql.Statement) (r *Result, ok bool, err error) {
	switch s := st.(type) {
	case *sql.CreateMaterializedView:
		r, err = f.CreateMView(ctx, s)
	case *sql.RefreshMaterializedView:
		r, err = f.refreshMViewStmt(ctx, s.Name)
	case *sql.ShowMaterializedViews:
		r, err = f.showMViews(ctx, s.In)
	case *sql.DescribeMaterializedView:
		r, err = f.describeMView(ctx, s.Name)
	case *sql.AlterMaterializedView:
		r, err = f.alterView(ctx, s.Name, s.With)
	case *sql.DropMaterializedView:
		r, err = f.DropMView(ctx, s)
	case *sql.VacuumMaterializedView:
		r, err = f.vacuumMView(ctx, s)
	case *sql.CreateSkippingIndex:
		r, err = f.createSkippingIndex(ctx, s)
	case *sql.CreateCoveringIndex:
		r, err = f.createCoveringIndex(ctx, s)
	case *sql.FlintIndexCommand:
		r, err = f.indexCommand(ctx, s)
	case *sql.ShowIndexes:
		r, err = f.showIndexes(ctx, s)
	case *sql.ShowFlintIndexes:
		r, err = f.showFlintIndexes(ctx, s)
	case *sql.RecoverIndexJob:
		r, err = f.recoverIndexJob(ctx, s)
	case *sql.AnalyzeSkippingIndex:
		r, err = f.analyzeSkippingIndex(ctx, s)
	default:
		return nil, false, nil
	}
	return r, true, err
}

// stringRows is a Result of STRING columns cols; the Host prints every
// cell redacted (SHOW, DESCRIBE and EXPLAIN show options, locations and
// errors, never data).
func stringRows(cols []string, rows [][]string) *Result {
	if cols == nil {
		cols = []string{}
	}
	return &Result{Columns: cols, Rows: rows}
}
