package streams

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/job"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

// Run plans stream name's query s (with spec's trigger, checkpoint and
// options), wires it to the runner and runs it in the foreground of ctx
// until it ends by itself, ctx is cancelled, or it fails. INSERT and
// START STREAM run it through Host.Launch; a view's or an index's
// refresh through the engine's flint adapter.
func (m *Streams) Run(ctx context.Context, name string, s Write, spec Spec) (*Result, error) {
	ps, err := m.planStream(ctx, name, s, spec, false)
	if err != nil {
		return nil, err
	}
	qctx, trig, lockTTL, t, sinkSpec, p, src := ps.qctx, ps.trig, ps.lockTTL, ps.table, ps.sinkSpec, ps.sp.Plan, ps.sp.Source
	groupIDs := ps.groupIDs
	if spec.Source != p.StreamTable {
		m.recordStreamSource(name, p.StreamTable)
	}
	if c, ok := src.(io.Closer); ok {
		// A source holding a connection (a notification queue) lets go of
		// it; what it did not acknowledge is redelivered.
		defer c.Close()
	}
	// The static sides are read now, before the checkpoint restores the
	// joins' state over them.
	if _, err := p.Prepare(qctx); err != nil {
		return nil, err
	}
	store, prefix, err := m.h.ResolveCheckpoint(qctx, spec.Checkpoint)
	if err != nil {
		return nil, fmt.Errorf("stream %s: checkpoint %s: %w", name, spec.Checkpoint, err)
	}
	writeID, err := (&stream.Checkpoint{Store: store, Prefix: prefix}).WriteID(qctx)
	if err != nil {
		return nil, fmt.Errorf("stream %s: checkpoint %s: %w", name, spec.Checkpoint, err)
	}
	sopts := connector.SinkOptions{FilePrefix: name, WriteID: writeID, GroupIDs: groupIDs}
	sink, err := m.h.OpenSink(qctx, sinkSpec, sopts)
	if err != nil {
		return nil, fmt.Errorf("stream %s: opening %s: %w", name, t.Spec.Name, err)
	}
	if spec.Wrap != nil {
		sink = spec.Wrap.Wrap(sink)
	}
	defer sink.Close()

	// Every option is checked before the stream registers: a refused
	// one must not leave a stream that reads as running.
	idle, _, err := job.IntervalOf(spec.Options, "watermark_idle_timeout")
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	}
	every := time.Minute
	if us, ok, err := job.IntervalOf(spec.Options, "lookup_refresh_interval"); err != nil {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	} else if ok {
		every = time.Duration(us) * time.Microsecond
	}
	d, _ := src.(connector.StreamDescriber)
	rs := job.NewRun(job.Status{Name: name, State: job.StateRunning, Trigger: trig.String(), Checkpoint: spec.Checkpoint,
		Sink: t.Spec.Name, Started: m.h.Now()}, d)
	workers, err := workersOption(spec.Options)
	if err != nil {
		return nil, usererr.Wrap(usererr.Invalid, fmt.Errorf("stream %s: %w", name, err))
	}
	if err := m.h.Runs().Register(ctx, rs); err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	q := &stream.Query{
		Name: name, Checkpoint: &stream.Checkpoint{Store: store, Prefix: prefix}, Trigger: trig,
		Clock: m.h.Clock(), Source: src, LockTTL: lockTTL, Scan: p.StreamScan, Root: p.Root, Sink: sink,
		Owner:     fmt.Sprintf("pid %d on %s", os.Getpid(), host),
		EventTime: p.EventTime,
		Slots:     m.h.EpochSlots(),
		OnStart:   job.OnStarted(ctx),
		OnProgress: func(p stream.Progress) {
			rs.Update(func(st *job.Status) {
				st.Last = p
				// Since the stream's first epoch, across runs and restarts.
				st.Epochs = p.Epoch + 1
				st.RowsIn, st.RowsOut = p.Totals.RowsIn, p.Totals.RowsOut
				st.BadRows, st.LateRows = p.Totals.BadRows, p.Totals.Late
				st.Reconciled = p.Totals.Reconciled
			})
			m.h.Progress(p)
		},
	}
	if p.EventTime != nil {
		q.Watermark = stream.NewWatermark(p.EventDelay, idle)
	}
	if len(p.Lookups) > 0 {
		clock := m.h.Clock()
		loaded := clock.Now()
		q.BeforeEpoch = func(ctx context.Context) error {
			if clock.Now().Sub(loaded) < every {
				return nil
			}
			// Inner joins come first, so each side is re-read over fresh
			// lookups of its own.
			for _, l := range p.Lookups {
				if err := exec.LoadBuildSide(ctx, l.Join); err != nil {
					return fmt.Errorf("refreshing join side: %w", err)
				}
			}
			loaded = clock.Now()
			return nil
		}
	}
	// Cancelling ctx asks for a stop at the next epoch boundary; the
	// epoch in flight still commits, unless WithAbandon's channel is
	// ready too: then it is abandoned (safe: it replays on restart).
	runCtx, hardCancel := context.WithCancel(context.WithoutCancel(qctx))
	defer hardCancel()
	go func() {
		select {
		case <-ctx.Done():
			rs.RequestStop()
		case <-rs.Done():
			return
		}
		select {
		case <-job.Abandon(ctx):
			hardCancel()
		case <-rs.Done():
		}
	}()
	abandoned := int64(-1)
	q.OnAbandon = func(epoch int64) { abandoned = epoch }
	if workers > 1 {
		err = m.runWorker(runCtx, rs, q, src, workers, spec.Options)
	} else {
		err = q.Run(runCtx, rs.Stopping())
	}
	if err == nil && abandoned >= 0 {
		err = fmt.Errorf("stream %s: abandoned epoch %d (it will be replayed on the next start)", name, abandoned)
	}
	st := rs.Update(func(s *job.Status) {
		switch {
		case err != nil && abandoned >= 0:
			s.State, s.LastError = job.StateCancelled, err.Error()
		case err != nil:
			s.State, s.LastError = job.StateFailed, err.Error()
		case ctx.Err() != nil:
			s.State = job.StateCancelled
		default:
			s.State = job.StateSuccess
		}
	})
	// What a later process says about the stream is what this one says
	// now. A run that ended cleanly at an epoch boundary because it was
	// asked to, by STOP STREAM or by the process stopping (SIGTERM
	// cancels ctx, which requests the stop), is stopped: it resumes from
	// its commit, nothing was cut short. Cancelled stays for a run whose
	// epoch was abandoned.
	rec := stream.RunStatus{State: st.State, Error: st.LastError, Time: m.h.Now().UnixMicro()}
	if err == nil && rs.StopRequested() && (rec.State == job.StateSuccess || rec.State == job.StateCancelled) {
		rec.State = "stopped"
	}
	if werr := q.Checkpoint.WriteRunStatus(context.WithoutCancel(ctx), rec); werr != nil && err == nil {
		err = fmt.Errorf("stream %s: recording its end: %w", name, werr)
	}
	// Only now: a STOP waiting on Done then reads the final state and
	// the recorded end, never "running".
	rs.Finish()
	if err != nil {
		return nil, err
	}
	return message("%s", st.Stopped(name)), nil
}
