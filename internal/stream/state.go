package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sluice/internal/exec"
	"sluice/internal/formatver"
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

// deltaChain is what an Incremental operator saved since its last full
// snapshot: how many deltas and their bytes, against the full one's.
type deltaChain struct {
	deltas           int64
	full, deltaBytes int64
}

// compactEvery is CompactEvery's default.
const compactEvery = 32

// snapshotState saves every stateful operator after epoch and returns the
// manifest that commits/epoch records: an exec.Incremental operator's
// changes as state/epoch/<id>.delta, chained to the deltas and the full
// snapshot before it, until the chain is CompactEvery long or its deltas
// outgrow the full snapshot; then (and for every other operator) a full
// state/epoch/<id>. Epochs commit in order and a replayed epoch rewrites
// its own files, so the chain of commits/epoch is always of committed
// epochs.
func (q *Query) snapshotState(ctx context.Context, epoch int64) (*StateManifest, error) {
	ops, err := q.stateOps()
	if err != nil {
		return nil, err
	}
	if q.chains == nil {
		q.chains = map[string]*deltaChain{}
	}
	limit := q.CompactEvery
	if limit == 0 {
		limit = compactEvery
	}
	m := &StateManifest{Operators: []StateEntry{}}
	for _, op := range ops {
		buf := &q.stateBuf
		buf.Reset()
		key := q.Checkpoint.StateKey(epoch, op.ID)
		chain := q.chains[op.ID]
		inc, ok := op.Op.(exec.Incremental)
		delta := ok && chain != nil && chain.deltas < limit && chain.deltaBytes <= chain.full
		if delta {
			err = inc.SnapshotDelta(buf)
			key = q.Checkpoint.DeltaKey(epoch, op.ID)
		} else {
			err = op.Op.Snapshot(buf)
		}
		if err != nil {
			return nil, fmt.Errorf("operator %s: %w", op.ID, err)
		}
		size := int64(buf.Len())
		err = q.Checkpoint.Store.Put(ctx, key, bytes.NewReader(buf.Bytes()), false)
		if buf.Cap() > 64<<20 {
			q.stateBuf = bytes.Buffer{} // a rare huge state must not stay pinned
		}
		if err != nil {
			return nil, fmt.Errorf("operator %s: %w", op.ID, err)
		}
		entry := StateEntry{StateFormat: formatver.State.Current(), ID: op.ID, Fingerprint: op.Description.Fingerprint(), Description: op.Description}
		entry.Bytes = size
		switch {
		case delta:
			chain.deltas++
			chain.deltaBytes += size
			entry.Deltas = chain.deltas
			entry.Bytes = chain.full + chain.deltaBytes
		case ok && limit > 0:
			q.chains[op.ID] = &deltaChain{full: size}
		}
		if sr, ok := op.Op.(exec.StateRower); ok {
			entry.Rows = sr.StateRows()
		}
		m.Operators = append(m.Operators, entry)
	}
	return m, nil
}

// restoreState loads the state of committed epoch epoch (commit is its
// record), after checking that it was saved by the same stateful
// operators: otherwise a *StateMismatchError, before anything is
// restored. A checkpoint with no commit fits any plan.
func (q *Query) restoreState(ctx context.Context, epoch int64, commit *CommitRecord) error {
	q.chains = nil
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
	saved := map[string]StateEntry{}
	for _, e := range commit.State.Operators {
		saved[e.ID] = e
	}
	chains := map[string]*deltaChain{}
	for _, op := range ops {
		e := saved[op.ID]
		if e.Deltas < 0 || e.Deltas > epoch {
			return fmt.Errorf("operator %s: commits/%d lists %d deltas", op.ID, epoch, e.Deltas)
		}
		base := epoch - e.Deltas
		full, err := q.restoreOne(ctx, q.Checkpoint.StateKey(base, op.ID), op, false)
		if err != nil {
			return err
		}
		chain := &deltaChain{full: full}
		for n := base + 1; n <= epoch; n++ {
			size, err := q.restoreOne(ctx, q.Checkpoint.DeltaKey(n, op.ID), op, true)
			if err != nil {
				return err
			}
			chain.deltas++
			chain.deltaBytes += size
		}
		chains[op.ID] = chain
	}
	q.chains = chains
	return q.removeUncommittedState(ctx, epoch)
}

// removeUncommittedState deletes state saved after epoch, the last
// commit: an epoch that crashed before its commit left it, and its
// replay writes its own (a stale delta is never read, but would linger).
func (q *Query) removeUncommittedState(ctx context.Context, epoch int64) error {
	p := q.Checkpoint.key("state") + "/"
	var stale []string
	err := q.Checkpoint.Store.List(ctx, p, "", func(o storage.ObjectInfo) error {
		e, _, _ := strings.Cut(strings.TrimPrefix(o.Key, p), "/")
		if n, err := strconv.ParseInt(e, 10, 64); err == nil && n > epoch {
			stale = append(stale, o.Key)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("listing %s: %w", p, err)
	}
	for _, k := range stale {
		if err := q.Checkpoint.Store.Delete(ctx, k); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return fmt.Errorf("removing uncommitted state %s: %w", k, err)
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
		if _, err := q.restoreOne(ctx, q.Checkpoint.legacyStateKey(epoch, i), op, false); err != nil {
			return err
		}
	}
	return nil
}

// restoreOne restores op from key, a full snapshot or (delta) a delta
// applied on top of what is restored so far; it returns the bytes read.
func (q *Query) restoreOne(ctx context.Context, key string, op exec.StatefulOp, delta bool) (int64, error) {
	var inc exec.Incremental
	if delta {
		var ok bool
		if inc, ok = op.Op.(exec.Incremental); !ok {
			return 0, fmt.Errorf("operator %s: the checkpoint holds deltas of its state, which it cannot apply", op.ID)
		}
	}
	r, err := q.Checkpoint.Store.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		return 0, fmt.Errorf("operator %s: its snapshot %s is missing from the checkpoint", op.ID, key)
	}
	if err != nil {
		return 0, fmt.Errorf("operator %s: %w", op.ID, err)
	}
	cr := &countingReader{r: r}
	if delta {
		err = inc.RestoreDelta(cr)
	} else {
		err = op.Op.Restore(cr)
	}
	r.Close()
	if err != nil {
		return 0, fmt.Errorf("operator %s: restoring %s: %w", op.ID, key, err)
	}
	return cr.n, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
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
