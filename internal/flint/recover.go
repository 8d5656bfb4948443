package flint

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
)

// recoverIndexJob restarts an auto-refreshed index's refresh (its job id
// is its Flint name) when it is not running.
func (f *Flint) recoverIndexJob(ctx context.Context, s *sql.RecoverIndexJob) (*Result, error) {
	name := strings.ToLower(s.Name)
	if _, spec, err := f.indexDef(name); err == nil {
		if spec.Kind == kindCovering {
			return f.recoverView(ctx, name, spec.IndexTable)
		}
		if !spec.AutoRefresh {
			return message("index %s is not auto refreshed: nothing to recover", spec.Flint), nil
		}
		if f.h.IsRunning("si_" + spec.Flint) {
			return message("index %s is refreshing", spec.Flint), nil
		}
		if _, err := f.refreshSkipping(ctx, spec.Flint, spec); err != nil {
			return nil, fmt.Errorf("RECOVER INDEX JOB %s: %w", s.Name, err)
		}
		return message("index %s recovered", spec.Flint), nil
	}
	// A view's job id is flint_<catalog>_<db>_<view>.
	mvs, err := f.h.Catalog().Objects("mview")
	if err != nil {
		return nil, err
	}
	for _, o := range mvs {
		db, v := catalog.SplitStored(o.Name)
		if strings.ToLower("flint_"+catalog.CatalogNames[0]+"_"+db+"_"+v) == name {
			return f.recoverView(ctx, name, o.Name)
		}
	}
	return nil, fmt.Errorf("RECOVER INDEX JOB %s: no index has that job id", s.Name)
}

// recoverView is RECOVER INDEX JOB for a view, or a covering index's
// view: job is the id the statement gave, for messages.
func (f *Flint) recoverView(ctx context.Context, job, view string) (*Result, error) {
	o, spec, err := f.mviewDef(view)
	if err != nil {
		return nil, err
	}
	if !spec.AutoRefresh {
		return message("index %s is not auto refreshed: nothing to recover", job), nil
	}
	if f.h.IsRunning("mv_" + o.Name) {
		return message("index %s is refreshing", job), nil
	}
	if _, err := f.RefreshView(ctx, o.Name, spec); err != nil {
		return nil, fmt.Errorf("RECOVER INDEX JOB %s: %w", job, err)
	}
	return message("index %s recovered", job), nil
}
