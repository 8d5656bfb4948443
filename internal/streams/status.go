package streams

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/job"
	"sluice/internal/stream"
)

// streamDef loads a stream definition from the catalog.
func (m *Streams) streamDef(name string) (*catalog.Object, Spec, error) {
	var spec Spec
	o, err := m.h.Catalog().Object("stream", name)
	if err != nil {
		return nil, spec, err
	}
	if err := json.Unmarshal(o.Options, &spec); err != nil {
		return nil, spec, fmt.Errorf("stream %s: corrupt definition: %w", name, err)
	}
	return o, spec, nil
}

// Status is the status of the stream the catalog records under name
// (kind "stream"), as streamStatus gives it; false when there is none.
func (m *Streams) Status(ctx context.Context, name string) (job.Status, bool) {
	o, err := m.h.Catalog().Object("stream", name)
	if err != nil {
		return job.Status{}, false
	}
	var spec Spec
	_ = json.Unmarshal(o.Options, &spec)
	return m.streamStatus(ctx, o, spec), true
}

// streamStatus merges what this process knows (a running stream) with the
// checkpoint (the last committed epoch, for streams run elsewhere).
func (m *Streams) streamStatus(ctx context.Context, o *catalog.Object, spec Spec) job.Status {
	if rs := m.h.Runs().Current(o.Name); rs != nil {
		st := rs.Snapshot()
		if st.Epochs > 0 || st.State != job.StateRunning {
			return st
		}
		// Running, no epoch yet in this run: the checkpoint's counts.
		cst := m.checkpointStatus(ctx, o, spec)
		st.Epochs, st.Last, st.RowsIn, st.RowsOut, st.BadRows, st.LateRows = cst.Epochs, cst.Last, cst.RowsIn, cst.RowsOut, cst.BadRows, cst.LateRows
		st.Reconciled = cst.Reconciled
		return st
	}
	return m.checkpointStatus(ctx, o, spec)
}

// checkpointStatus is what the checkpoint says of a stream this process
// does not run: how its last run ended, its last commit and its totals.
func (m *Streams) checkpointStatus(ctx context.Context, o *catalog.Object, spec Spec) job.Status {
	st := job.Status{Name: o.Name, State: "stopped", Trigger: spec.Trigger, Checkpoint: spec.Checkpoint, Sink: spec.Table}
	if store, prefix, err := m.h.ResolveCheckpoint(ctx, spec.Checkpoint); err == nil {
		cp := &stream.Checkpoint{Store: store, Prefix: prefix}
		if rs, err := cp.ReadRunStatus(ctx); err == nil && rs != nil {
			st.State, st.LastError = rs.State, rs.Error
		}
		if last, err := cp.Last(ctx, "commits"); err == nil && last >= 0 {
			st.Epochs = last + 1
			if c, err := cp.ReadCommit(ctx, last); err == nil {
				if c.Totals != nil {
					st.RowsIn, st.RowsOut, st.BadRows, st.LateRows = c.Totals.RowsIn, c.Totals.RowsOut, c.Totals.BadRows, c.Totals.Late
					st.Reconciled = c.Totals.Reconciled
				}
				st.Last = stream.Progress{Epoch: last, Files: c.Files, Bytes: c.Bytes, RowsIn: c.RowsIn, RowsOut: c.RowsOut,
					LateRows: c.Late, BadRows: c.BadRows, Watermark: stream.NoWatermark, Time: time.UnixMicro(c.Time).UTC(),
					Duration: time.Duration(c.Duration) * time.Microsecond, Phases: c.Phases.Phases()}
				if c.State != nil {
					st.Last.State = c.State.Operators
				}
				if c.MaxEventTime != 0 && c.MaxEventTime != stream.NoWatermark {
					st.Last.MaxEventTime = c.MaxEventTime
				}
				// The watermark the last epoch used, as a running stream's
				// progress reports it.
				if off, err := cp.ReadOffset(ctx, last); err == nil && off.Watermark != 0 {
					st.Last.Watermark = off.Watermark
				}
			}
		}
	}
	return st
}
