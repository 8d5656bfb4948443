package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/job"
	"sluice/internal/sql"
	"sluice/internal/stream"
	"sluice/internal/types"
)

// streamDef loads a stream definition from the catalog.
func (e *Engine) streamDef(name string) (*catalog.Object, streamSpec, error) {
	var spec streamSpec
	o, err := e.catalog.Object("stream", name)
	if err != nil {
		return nil, spec, err
	}
	if err := json.Unmarshal(o.Options, &spec); err != nil {
		return nil, spec, fmt.Errorf("stream %s: corrupt definition: %w", name, err)
	}
	return o, spec, nil
}

// status merges what this process knows (a running stream) with the
// checkpoint (the last committed epoch, for streams run elsewhere).
func (e *Engine) streamStatus(ctx context.Context, o *catalog.Object, spec streamSpec) job.Status {
	if rs := e.jobs.Current(o.Name); rs != nil {
		st := rs.Snapshot()
		if st.Epochs > 0 || st.State != job.StateRunning {
			return st
		}
		// Running, no epoch yet in this run: the checkpoint's counts.
		cst := e.checkpointStatus(ctx, o, spec)
		st.Epochs, st.Last, st.RowsIn, st.RowsOut, st.BadRows, st.LateRows = cst.Epochs, cst.Last, cst.RowsIn, cst.RowsOut, cst.BadRows, cst.LateRows
		return st
	}
	return e.checkpointStatus(ctx, o, spec)
}

// checkpointStatus is what the checkpoint says of a stream this process
// does not run: how its last run ended, its last commit and its totals.
func (e *Engine) checkpointStatus(ctx context.Context, o *catalog.Object, spec streamSpec) job.Status {
	st := job.Status{Name: o.Name, State: "stopped", Trigger: spec.Trigger, Checkpoint: spec.Checkpoint, Sink: spec.Table}
	if store, prefix, err := e.resolveCheckpoint(ctx, spec.Checkpoint); err == nil {
		cp := &stream.Checkpoint{Store: store, Prefix: prefix}
		if rs, err := cp.ReadRunStatus(ctx); err == nil && rs != nil {
			st.State, st.LastError = rs.State, rs.Error
		}
		if last, err := cp.Last(ctx, "commits"); err == nil && last >= 0 {
			st.Epochs = last + 1
			if c, err := cp.ReadCommit(ctx, last); err == nil {
				if c.Totals != nil {
					st.RowsIn, st.RowsOut, st.BadRows, st.LateRows = c.Totals.RowsIn, c.Totals.RowsOut, c.Totals.BadRows, c.Totals.Late
				}
				st.Last = stream.Progress{Epoch: last, Files: c.Files, Bytes: c.Bytes, RowsIn: c.RowsIn, RowsOut: c.RowsOut,
					LateRows: c.Late, BadRows: c.BadRows, Watermark: stream.NoWatermark, Time: time.UnixMicro(c.Time).UTC()}
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

func (e *Engine) showStreams(ctx context.Context) (*Result, error) {
	objs, err := e.catalog.Objects("stream")
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, o := range objs {
		var spec streamSpec
		_ = json.Unmarshal(o.Options, &spec)
		st := e.streamStatus(ctx, o, spec)
		last := ""
		if st.Epochs > 0 {
			last = strconv.FormatInt(st.Last.Epoch, 10)
		}
		rows = append(rows, []string{o.Name, st.State, spec.Table, st.Trigger, last, st.Checkpoint})
	}
	return stringRows([]string{"name", "state", "sink", "trigger", "last_epoch", "checkpoint"}, rows), nil
}

func (e *Engine) describeStream(ctx context.Context, name string) (*Result, error) {
	o, spec, err := e.streamDef(name)
	if err != nil {
		return nil, err
	}
	st := e.streamStatus(ctx, o, spec)
	wm := ""
	if st.Last.Watermark != 0 && st.Last.Watermark != stream.NoWatermark {
		wm = types.FormatTimestamp(st.Last.Watermark)
	}
	kv := [][]string{
		{"name", o.Name},
		{"query", o.SQL},
		{"state", st.State},
		{"sink", spec.Table},
		{"trigger", st.Trigger},
		{"checkpoint", st.Checkpoint},
		{"epochs", strconv.FormatInt(st.Epochs, 10)},
		{"last_epoch", strconv.FormatInt(st.Last.Epoch, 10)},
		{"last_epoch_files", strconv.Itoa(st.Last.Files)},
		{"last_epoch_bytes", strconv.FormatInt(st.Last.Bytes, 10)},
		{"last_epoch_rows_in", strconv.FormatInt(st.Last.RowsIn, 10)},
		{"last_epoch_rows_out", strconv.FormatInt(st.Last.RowsOut, 10)},
		{"rows_in", strconv.FormatInt(st.RowsIn, 10)},
		{"rows_out", strconv.FormatInt(st.RowsOut, 10)},
		{"last_epoch_bad_rows", strconv.FormatInt(st.Last.BadRows, 10)},
		{"bad_rows", strconv.FormatInt(st.BadRows, 10)},
		{"input_rate", fmt.Sprintf("%.1f", st.Last.InputRate)},
		{"processing_rate", fmt.Sprintf("%.1f", st.Last.ProcessRate)},
		{"watermark", wm},
		{"late_rows_dropped", strconv.FormatInt(max(st.LateRows, st.Last.LateRows), 10)},
		{"last_epoch_late_rows", strconv.FormatInt(st.Last.LateRows, 10)},
		{"lag_files", strconv.Itoa(st.Last.LagFiles)},
		{"lag_bytes", strconv.FormatInt(st.Last.LagBytes, 10)},
		{"last_error", st.LastError},
	}
	if st.Worker != "" {
		kv = append(kv, []string{"worker", st.Worker})
	}
	for _, r := range st.Source {
		kv = append(kv, []string{r[0], r[1]})
	}
	if st.Queue != nil || st.QueueUnreachable > 0 {
		kv = append(kv, []string{"queue_unreachable", strconv.FormatInt(st.QueueUnreachable, 10)})
	}
	if !st.Started.IsZero() {
		kv = append(kv, []string{"started", st.Started.Format("2006-01-02 15:04:05")})
	}
	return stringRows([]string{"key", "value"}, kv), nil
}

// stopStream stops a stream at its next epoch boundary: directly when it
// runs in this process, and through a stop request in its checkpoint when
// it runs in another.
func (e *Engine) stopStream(ctx context.Context, name string) (*Result, error) {
	o, spec, err := e.streamDef(name)
	if err != nil {
		return nil, err
	}
	if e.opts.Background != nil {
		if err := e.setStreamDesired(name, job.DesiredStopped); err != nil {
			return nil, err
		}
	}
	if workers, _ := workersOption(spec.Options); workers > 1 {
		return e.stopWorkers(ctx, o, spec)
	}
	if e.jobs.StopIfRunning(name) {
		return message("stream %s stopped", name), nil
	}
	store, prefix, err := e.resolveCheckpoint(ctx, spec.Checkpoint)
	if err != nil {
		return nil, err
	}
	cp := &stream.Checkpoint{Store: store, Prefix: prefix}
	if err := cp.RequestStop(ctx); err != nil {
		return nil, fmt.Errorf("stopping stream %s: %w", name, err)
	}
	return message("stop requested for stream %s (it stops after its running epoch)", name), nil
}

// startStream resumes a stream from its checkpoint, in the foreground.
func (e *Engine) startStream(ctx context.Context, name string) (*Result, error) {
	o, spec, err := e.streamDef(name)
	if err != nil {
		return nil, err
	}
	st, err := sql.ParseOne(o.SQL)
	if err != nil {
		return nil, fmt.Errorf("stream %s: stored query: %w", name, err)
	}
	is, ok := st.(*sql.InsertStream)
	if !ok {
		return nil, fmt.Errorf("stream %s: stored query is not INSERT STREAM", name)
	}
	if e.opts.Background != nil {
		if e.jobs.IsRunning(o.Name) {
			return message("stream %s is already running", o.Name), nil
		}
		if err := e.setStreamDesired(o.Name, job.DesiredRunning); err != nil {
			return nil, err
		}
	}
	return e.launch(ctx, o.Name, func(ctx context.Context) (*Result, error) {
		return e.runStream(ctx, o.Name, insertWrite(is), spec)
	}, func() { _ = e.setStreamDesired(o.Name, job.DesiredStopped) })
}
