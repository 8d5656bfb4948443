package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"sluice/internal/exec"
	"sluice/internal/storage"
)

// statefulOps lists the plan's stateful operators in a fixed order
// (inputs before consumers), which is how snapshots are numbered.
func statefulOps(st *exec.Stage) []exec.Stateful {
	var out []exec.Stateful
	var walk func(*exec.Stage)
	walk = func(s *exec.Stage) {
		for _, in := range s.Inputs {
			walk(in)
		}
		for _, op := range s.Ops {
			if sf, ok := op.(exec.Stateful); ok {
				out = append(out, sf)
			}
		}
	}
	walk(st)
	return out
}

func (q *Query) snapshotState(ctx context.Context, epoch int64) error {
	for i, op := range statefulOps(q.Root) {
		var buf bytes.Buffer
		if err := op.Snapshot(&buf); err != nil {
			return fmt.Errorf("operator %d: %w", i, err)
		}
		if err := q.Checkpoint.Store.Put(ctx, q.Checkpoint.StateKey(epoch, i), &buf, false); err != nil {
			return fmt.Errorf("operator %d: %w", i, err)
		}
	}
	return nil
}

func (q *Query) restoreState(ctx context.Context, epoch int64) error {
	if epoch < 0 {
		return nil
	}
	for i, op := range statefulOps(q.Root) {
		r, err := q.Checkpoint.Store.Open(ctx, q.Checkpoint.StateKey(epoch, i))
		if errors.Is(err, storage.ErrNotFound) {
			continue // the operator was added since, or had nothing to save
		}
		if err != nil {
			return err
		}
		err = op.Restore(r)
		r.Close()
		if err != nil {
			return fmt.Errorf("operator %d: %w", i, err)
		}
	}
	return nil
}
