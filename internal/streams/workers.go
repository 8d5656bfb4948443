package streams

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/job"
	"sluice/internal/physical"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

// workersOption reads WITH (workers = N): how many processes may share
// the stream (docs/scale-out.md); 1 when absent.
func workersOption(opts map[string]string) (int, error) {
	v := strings.TrimSpace(opts["workers"])
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1024 {
		return 0, fmt.Errorf("workers %q: want a number of processes from 1 to 1024", v)
	}
	return n, nil
}

// runWorker runs q as one of workers processes sharing the stream: it
// takes the first slot of the checkpoint whose lock is free
// (<checkpoint>/workers/<i>/, a whole stream checkpoint of its own) and
// runs there, replaying that slot's uncommitted epoch if a dead worker
// left one. Only stateless queries over a source that can be shared
// qualify: files are handed out by the source's queue, and each is
// written under an id of its own (connector.EpochNamer), so a file read
// by two workers is written once.
func (m *Streams) runWorker(ctx context.Context, rs *job.Run, q *stream.Query, src connector.StreamingSource, workers int, opts map[string]string) error {
	ops, err := exec.StatefulOps(q.Root)
	if err != nil {
		return err
	}
	w, ok := src.(connector.Worker)
	if !ok {
		return fmt.Errorf("stream %s: its source cannot be shared by workers", q.Name)
	}
	defer job.WatchStop(ctx, rs, q.Checkpoint, src)()
	if len(ops) > 0 {
		if at, wa, fp, ok := physical.KeyedSplit(q.Root, ops); ok {
			return m.runKeyed(ctx, rs, q, src, workers, at, wa, fp, opts)
		}
		if physical.CompleteMode(ops) {
			return usererr.Errorf(usererr.Unsupported, "stream %s: workers = %d cannot run output_mode = 'complete': it rewrites every group at every epoch, "+
				"and shared by workers each process holds only its partitions' groups; use output_mode = 'update' (each group written when it changes, under an id of its key)", q.Name, workers)
		}
		return fmt.Errorf("stream %s: workers = %d needs a stateless query, one windowed aggregation (append or update mode) or one update-mode GROUP BY; %s keeps state", q.Name, workers, ops[0].ID)
	}
	return m.runSlots(ctx, rs, q, w, workers)
}

// runSlots runs q in the first free worker slot.
func (m *Streams) runSlots(ctx context.Context, rs *job.Run, q *stream.Query, w connector.Worker, workers int) error {
	base := q.Checkpoint
	for slot := 0; slot < workers; slot++ {
		if err := w.SetWorker(slot, workers); err != nil {
			return fmt.Errorf("stream %s: %w", q.Name, err)
		}
		q.Checkpoint = slotCheckpoint(base, slot)
		rs.Update(func(st *job.Status) {
			st.Worker = fmt.Sprintf("%d of %d", slot, workers)
			st.Slot, st.Slots = slot, workers
		})
		err := q.Run(ctx, rs.Stopping())
		if errors.Is(err, stream.ErrLocked) {
			continue
		}
		return err
	}
	return fmt.Errorf("stream %s: all %d worker slots are taken: %w", q.Name, workers, stream.ErrLocked)
}

// slotCheckpoint is worker slot's checkpoint, <base>/workers/<slot>/.
func slotCheckpoint(base *stream.Checkpoint, slot int) *stream.Checkpoint {
	return &stream.Checkpoint{Store: base.Store, Prefix: base.Prefix + "workers/" + strconv.Itoa(slot) + "/"}
}
