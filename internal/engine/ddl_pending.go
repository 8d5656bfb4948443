package engine

import (
	"context"
	"errors"
	"fmt"

	"sluice/internal/catalog"
)

// sweepPending undoes the DDL a process killed mid-statement left
// (catalog Pending marks whose owner is gone): materialized views first
// (flint.SweepPending: kept when they committed an epoch), then tables,
// a CTAS's before its first write committed and a view's sink left
// without its view, dropped as the failed statement would have dropped
// them. Open runs it before any stream resumes; a warning names each.
func (e *Engine) sweepPending(ctx context.Context) error {
	if e.opts.DataDir == "" {
		return nil
	}
	kept, removed, err := e.flint().SweepPending(ctx)
	errs := []error{err}
	warn := e.warnFunc()
	if warn == nil {
		warn = func(string) {}
	}
	for _, n := range kept {
		warn(fmt.Sprintf("%s: its CREATE was cut short after it committed; kept, and it goes on from its checkpoint", n))
	}
	for _, n := range removed {
		warn(fmt.Sprintf("%s: its CREATE was cut short before it committed anything; removed", n))
	}
	tables, terr := e.catalog.Tables()
	if terr != nil {
		return errors.Join(append(errs, terr)...)
	}
	for _, t := range tables {
		if t.Pending == "" || !catalog.OwnerGone(t.Pending) {
			continue
		}
		if err := e.forgetTable(ctx, t); err != nil {
			errs = append(errs, fmt.Errorf("undoing CREATE TABLE %s: %w", t.Spec.Name, err))
			continue
		}
		warn(fmt.Sprintf("table %s: its CREATE TABLE ... AS SELECT was cut short before it committed; removed", t.Spec.Name))
	}
	return errors.Join(errs...)
}
