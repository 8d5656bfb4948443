package flint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"sluice/internal/catalog"
	"sluice/internal/stream"
)

// complete clears the pending marks of a view made in full.
func (f *Flint) complete(name string) error { return f.completeObject("mview", name, name) }

// completeObject clears the pending mark of the object kind/name and,
// when table is not empty, of the table it writes.
func (f *Flint) completeObject(kind, name, table string) error {
	cat := f.h.Catalog()
	o, err := cat.Object(kind, name)
	if err != nil {
		return err
	}
	if o.Pending != "" {
		done := *o
		done.Pending = ""
		if err := cat.PutObject(&done, true); err != nil {
			return err
		}
	}
	if table == "" {
		return nil
	}
	return cat.CompleteTable(table)
}

// SweepPending finishes what a process killed during CREATE MATERIALIZED
// VIEW, CREATE SKIPPING INDEX or CREATE INDEX left (catalog.Object.Pending, its owner gone): a view whose
// refresh committed an epoch is kept, marked done, and goes on from its
// checkpoint at its next refresh (or now, when auto-refreshed); one that
// committed nothing is removed with its sink and checkpoint, as the
// failed statement would have removed it. It returns the views it kept
// and those it removed; the error joins one per view it could not undo.
func (f *Flint) SweepPending(ctx context.Context) (kept, removed []string, err error) {
	views, err := f.h.Catalog().Objects("mview")
	if err != nil {
		return nil, nil, fmt.Errorf("materialized views: %w", err)
	}
	var errs []error
	for _, o := range views {
		if o.Pending == "" || !catalog.OwnerGone(o.Pending) {
			continue
		}
		var spec ViewSpec
		if err := json.Unmarshal(o.Options, &spec); err != nil {
			errs = append(errs, fmt.Errorf("materialized view %s: %w", o.Name, err))
			continue
		}
		if f.committed(ctx, spec.Checkpoint) {
			if err := f.complete(o.Name); err != nil {
				errs = append(errs, fmt.Errorf("materialized view %s: %w", o.Name, err))
				continue
			}
			kept = append(kept, o.Name)
			continue
		}
		if err := f.removeMView(ctx, o.Name, spec, false, true); err != nil {
			errs = append(errs, fmt.Errorf("undoing CREATE MATERIALIZED VIEW %s: %w", o.Name, err))
			continue
		}
		removed = append(removed, o.Name)
	}
	k, r, err := f.sweepIndexes(ctx)
	return append(kept, k...), append(removed, r...), errors.Join(append(errs, err)...)
}

// sweepIndexes is SweepPending for Flint indexes, after the views: a
// skipping index is kept when its refresh committed and removed (with its
// table and checkpoint) when not; a covering index follows its view,
// kept when the view was, forgotten when the view is gone.
func (f *Flint) sweepIndexes(ctx context.Context) (kept, removed []string, err error) {
	objs, err := f.h.Catalog().Objects(indexKind)
	if err != nil {
		return nil, nil, fmt.Errorf("indexes: %w", err)
	}
	var errs []error
	for _, o := range objs {
		if o.Pending == "" || !catalog.OwnerGone(o.Pending) {
			continue
		}
		var spec indexSpec
		if err := json.Unmarshal(o.Options, &spec); err != nil {
			errs = append(errs, fmt.Errorf("index %s: %w", o.Name, err))
			continue
		}
		keep := f.committed(ctx, spec.Checkpoint)
		table := spec.IndexTable
		if spec.Kind == kindCovering {
			_, verr := f.h.Catalog().Object("mview", spec.IndexTable)
			keep, table = verr == nil, ""
		}
		switch {
		case keep:
			err = f.completeObject(indexKind, o.Name, table)
		case spec.Kind == kindCovering:
			err = f.h.Catalog().DropObject(indexKind, o.Name, true)
		default:
			err = f.removeSkipping(ctx, spec.Flint, spec, false, true)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("index %s: %w", spec.Flint, err))
			continue
		}
		if keep {
			kept = append(kept, spec.Flint)
		} else {
			removed = append(removed, spec.Flint)
		}
	}
	return kept, removed, errors.Join(errs...)
}

// committed reports whether the checkpoint at loc holds a commit (errors
// count as yes: when in doubt, nothing is removed).
func (f *Flint) committed(ctx context.Context, loc string) bool {
	store, prefix, err := f.h.ResolveCheckpoint(ctx, loc)
	if err != nil {
		return true
	}
	last, err := (&stream.Checkpoint{Store: store, Prefix: prefix}).Last(ctx, "commits")
	return err != nil || last >= 0
}
