package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sluice/internal/exec"
	"sluice/internal/storage"
)

// stateOps lists the plan's stateful operators with their ids, once: the
// plan does not change while the query runs.
func (q *Query) stateOps() ([]exec.StatefulOp, error) {
	if q.ops == nil {
		ops, err := exec.StatefulOps(q.Root)
		if err != nil {
			return nil, err
		}
		q.ops = ops
		if q.ops == nil {
			q.ops = []exec.StatefulOp{}
		}
	}
	return q.ops, nil
}

// snapshotState saves every stateful operator under state/epoch/<id> and
// returns the manifest that commits/epoch records.
func (q *Query) snapshotState(ctx context.Context, epoch int64) (*StateManifest, error) {
	ops, err := q.stateOps()
	if err != nil {
		return nil, err
	}
	m := &StateManifest{Operators: []StateEntry{}}
	for _, op := range ops {
		var buf bytes.Buffer
		if err := op.Op.Snapshot(&buf); err != nil {
			return nil, fmt.Errorf("operator %s: %w", op.ID, err)
		}
		if err := q.Checkpoint.Store.Put(ctx, q.Checkpoint.StateKey(epoch, op.ID), &buf, false); err != nil {
			return nil, fmt.Errorf("operator %s: %w", op.ID, err)
		}
		m.Operators = append(m.Operators, StateEntry{ID: op.ID, Fingerprint: op.Description.Fingerprint(), Description: op.Description})
	}
	return m, nil
}

// restoreState loads the state of committed epoch epoch (commit is its
// record), after checking that it was saved by the same stateful
// operators: otherwise a *StateMismatchError, before anything is
// restored. A checkpoint with no commit fits any plan.
func (q *Query) restoreState(ctx context.Context, epoch int64, commit *CommitRecord) error {
	if epoch < 0 {
		return nil
	}
	ops, err := q.stateOps()
	if err != nil {
		return err
	}
	if commit.State == nil {
		return q.restoreLegacyState(ctx, epoch, ops)
	}
	if changes := stateChanges(commit.State, ops); len(changes) > 0 {
		return &StateMismatchError{Stream: q.Name, Checkpoint: q.Checkpoint.String(), Changes: changes}
	}
	for _, op := range ops {
		if err := q.restoreOne(ctx, q.Checkpoint.StateKey(epoch, op.ID), op); err != nil {
			return err
		}
	}
	return nil
}

// restoreLegacyState restores a checkpoint written before operators had
// ids: snapshots numbered by walk order, no fingerprints. Only the number
// of operators can be checked.
func (q *Query) restoreLegacyState(ctx context.Context, epoch int64, ops []exec.StatefulOp) error {
	p := q.Checkpoint.key("state", strconv.FormatInt(epoch, 10)) + "/"
	saved := 0
	err := q.Checkpoint.Store.List(ctx, p, "", func(o storage.ObjectInfo) error {
		if _, err := strconv.Atoi(strings.TrimPrefix(o.Key, p)); err == nil {
			saved++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("listing %s: %w", p, err)
	}
	if saved != len(ops) {
		return &StateMismatchError{Stream: q.Name, Checkpoint: q.Checkpoint.String(), Changes: []string{
			fmt.Sprintf("the checkpoint holds the state of %d stateful operators and the query has %d", saved, len(ops))}}
	}
	for i, op := range ops {
		if err := q.restoreOne(ctx, q.Checkpoint.legacyStateKey(epoch, i), op); err != nil {
			return err
		}
	}
	return nil
}

func (q *Query) restoreOne(ctx context.Context, key string, op exec.StatefulOp) error {
	r, err := q.Checkpoint.Store.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("operator %s: its snapshot %s is missing from the checkpoint", op.ID, key)
	}
	if err != nil {
		return fmt.Errorf("operator %s: %w", op.ID, err)
	}
	err = op.Op.Restore(r)
	r.Close()
	if err != nil {
		return fmt.Errorf("operator %s: %w", op.ID, err)
	}
	return nil
}

// stateChanges lists how the plan's stateful operators differ from the
// ones that saved m: added, removed, or with another fingerprint.
func stateChanges(m *StateManifest, ops []exec.StatefulOp) []string {
	saved := map[string]StateEntry{}
	for _, e := range m.Operators {
		saved[e.ID] = e
	}
	var out []string
	now := map[string]bool{}
	for _, op := range ops {
		now[op.ID] = true
		e, ok := saved[op.ID]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s is new: %s", op.ID, describe(op.Description)))
		case e.Fingerprint != op.Description.Fingerprint():
			diff := op.Description.Diff(e.Description)
			if diff == "" {
				diff = "its state is saved in another format"
			}
			out = append(out, op.ID+": "+diff)
		}
	}
	for _, e := range m.Operators {
		if !now[e.ID] {
			out = append(out, fmt.Sprintf("%s is gone: %s", e.ID, describe(e.Description)))
		}
	}
	return out
}

func describe(d exec.StateDescription) string {
	parts := make([]string, len(d.Props))
	for i, p := range d.Props {
		parts[i] = p.Name + " " + p.Value
	}
	return strings.Join(parts, ", ")
}

// StateMismatchError is a restart whose plan's stateful operators do not
// match the state in its checkpoint (other group keys, window or
// aggregates): restoring would give wrong results, so the stream does not
// start.
type StateMismatchError struct {
	Stream     string
	Checkpoint string
	// Changes says what differs, one entry per operator.
	Changes []string
}

func (e *StateMismatchError) Error() string {
	return fmt.Sprintf("stream %s: the query's state no longer matches checkpoint %s (%s); to start over, use a new checkpoint_location or delete the checkpoint",
		e.Stream, e.Checkpoint, strings.Join(e.Changes, "; "))
}
