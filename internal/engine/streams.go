package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/exec"
	"sluice/internal/job"
	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/safepath"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

// streamSpec is a stream definition as kept in the catalog.
type streamSpec struct {
	Table      string            `json:"table"`
	Trigger    string            `json:"trigger,omitempty"`
	Checkpoint string            `json:"checkpoint"`
	Options    map[string]string `json:"options,omitempty"`
	// Desired is the state the stream was asked to be in (job.DesiredRunning,
	// job.DesiredStopped); empty for streams only ever run in the foreground.
	Desired string `json:"desired,omitempty"`
	// Source is the catalog table the stream reads as a stream, recorded
	// when it first planned: STOP STREAM opens it for its stop signal
	// without planning the query again. Empty in definitions written
	// before it was recorded (their workers then stop by the
	// checkpoint's marker alone).
	Source string `json:"source,omitempty"`
	// sink, when set, stands between the stream and its table's sink (a
	// skipping index folds rows per file); never stored.
	sink *sinkWrap
}

// insertStream runs INSERT STREAM in the foreground: it returns when the
// stream ends by itself (trigger once / available_now), when ctx is
// cancelled (the running epoch finishes first, as STOP STREAM does), or
// on error.
func (e *Engine) insertStream(ctx context.Context, s *sql.InsertStream) (*Result, error) {
	name, spec, err := e.insertStreamSpec(s)
	if err != nil {
		return nil, err
	}
	if err := e.checkStreamLocations(ctx, spec.Options); err != nil {
		return nil, fmt.Errorf("INSERT STREAM %s: %w", name, err)
	}
	if e.opts.Background != nil {
		spec.Desired = job.DesiredRunning
	}
	raw, _ := json.Marshal(spec)
	obj := &catalog.Object{Kind: "stream", Name: name, SQL: s.String(), Options: raw, Created: e.now()}
	prev, _ := e.catalog.Object("stream", name)
	if err := e.catalog.PutObject(obj, true); err != nil {
		return nil, fmt.Errorf("INSERT STREAM %s: %w", name, err)
	}
	before := e.jobs.Current(name)
	r, err := e.launch(ctx, name, func(ctx context.Context) (*Result, error) {
		return e.runStream(ctx, name, insertWrite(s), spec)
	}, func() { _ = e.setStreamDesired(name, job.DesiredStopped) })
	var mismatch *stream.StateMismatchError
	if err != nil && (e.jobs.Current(name) == before || errors.As(err, &mismatch)) {
		// The stream never started (its query did not plan, or its state
		// does not match the checkpoint's): leave the catalog as it was. A stream that ran and then failed stays, so
		// that START STREAM can resume it once the cause is fixed.
		if prev != nil {
			_ = e.catalog.PutObject(prev, true)
		} else {
			_ = e.catalog.DropObject("stream", name, true)
		}
	}
	return r, err
}

// insertStreamSpec is the stream an INSERT STREAM defines: its name and
// its definition, options checked.
func (e *Engine) insertStreamSpec(s *sql.InsertStream) (string, streamSpec, error) {
	opts := map[string]string{}
	for _, o := range s.With {
		opts[strings.ToLower(o.Key)] = o.Value.Value
	}
	name := streamName(s.Table, s.With)
	if err := checkName(name); err != nil {
		return "", streamSpec{}, fmt.Errorf("INSERT STREAM: stream %w", err)
	}
	if err := validateStreamOptions(opts); err != nil {
		return "", streamSpec{}, fmt.Errorf("INSERT STREAM %s: %w", name, err)
	}
	cpLoc := opts["checkpoint_location"]
	if cpLoc == "" {
		if e.opts.DataDir == "" {
			return "", streamSpec{}, fmt.Errorf("INSERT STREAM %s: checkpoint_location is required without a data directory", name)
		}
		p, err := safepath.Join(e.opts.DataDir, "checkpoints", name)
		if err != nil {
			return "", streamSpec{}, fmt.Errorf("INSERT STREAM %s: %w", name, err)
		}
		cpLoc = p
	}
	return name, streamSpec{Table: s.Table, Trigger: opts["trigger"], Checkpoint: storage.NormalizeLocation(cpLoc), Options: opts}, nil
}

func validateStreamOptions(opts map[string]string) error {
	if err := job.Check(job.Stream, opts, "for a stream", registry.StreamOptionKeys()); err != nil {
		return err
	}
	if m := opts["output_mode"]; m != "" && m != "append" && m != "update" && m != "complete" {
		return usererr.Errorf(usererr.Invalid, "output_mode %q: want append, update or complete", m)
	}
	return nil
}

// plannedStream is a stream's query planned and compiled, before
// anything is opened: what EXPLAIN prints and runStream runs.
type plannedStream struct {
	qctx     context.Context
	trig     stream.Trigger
	lockTTL  time.Duration
	table    *catalog.Table
	sinkSpec connector.TableSpec
	logical  plan.Node
	sp       *physical.StreamPlan
	// groupIDs: the sink's id options name groups (docid's group keys).
	groupIDs bool
}

// planStream binds, optimizes and compiles the stream's query (its
// sink's schema evolved when the sink is a table that may grow, unless
// dryRun) and finds its streaming input; it opens no sink, checkpoint
// or connection.
func (e *Engine) planStream(ctx context.Context, name string, s streamWrite, spec streamSpec, dryRun bool) (*plannedStream, error) {
	trig, err := stream.ParseTrigger(spec.Trigger)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	}
	var lockTTL time.Duration
	if v := spec.Options["lock_ttl"]; v != "" {
		tt, err := stream.ParseTrigger(v)
		if err != nil || tt.Interval <= 0 {
			return nil, usererr.Errorf(usererr.Invalid, "stream %s: lock_ttl %q: want an interval like '5 seconds'", name, v)
		}
		lockTTL = tt.Interval
	}
	t := s.sink
	if t == nil {
		if t, err = e.catalog.Table(s.Table); err != nil {
			return nil, err
		}
	}
	if !registry.CanWrite(t.Spec.Using) {
		return nil, fmt.Errorf("table %s (USING %s) cannot be written", t.Spec.Name, t.Spec.Using)
	}
	qctx := e.queryContext(ctx)
	res := tableResolver{e: e, overrides: sourceOverrides(spec.Options)}
	if d, ok, err := job.IntervalOf(spec.Options, "watermark_delay"); err != nil {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	} else if ok {
		res.watermarkDelay = &d
		res.eventTimeColumn = sql.WindowTimeColumn(s.Query)
	}
	binder := plan.NewBinder(qctx, res)
	binder.Streaming = true
	n, err := binder.BindQuery(s.Query)
	if err != nil {
		return nil, err
	}
	if err := e.checkSelfRead(name, n, t.Spec); err != nil {
		return nil, err
	}
	cols := s.Columns
	target := t.Spec.Schema
	if spec.sink != nil {
		target = spec.sink.schema
	} else if t, n, cols, err = e.evolveTable(t, n, cols, dryRun); err != nil {
		return nil, err
	} else {
		target = t.Spec.Schema
	}
	if n, err = conformToTable(n, target, cols, t.Spec.Name); err != nil {
		return nil, err
	}
	sinkSpec, err := keyedSinkSpec(name, spec.Options, t.Spec, n)
	if err != nil {
		return nil, err
	}
	groupIDs := idsNameGroups(sinkSpec, n) // on the plan as bound, as keyedSinkSpec reads it
	if n, err = plan.OptimizeContext(qctx, n); err != nil {
		return nil, err
	}
	copts := e.compileOptions(qctx)
	switch spec.Options["output_mode"] {
	case "update":
		copts.OutputMode = exec.Update
	case "complete":
		copts.OutputMode = exec.Complete
	}
	sp, err := physical.CompileStream(n, copts)
	if errors.Is(err, physical.ErrNoStreamingInput) || errors.Is(err, physical.ErrNotStreamable) {
		return nil, fmt.Errorf("stream %s: %w", name, err)
	} else if err != nil {
		return nil, err
	}
	return &plannedStream{qctx: qctx, trig: trig, lockTTL: lockTTL, table: t, sinkSpec: sinkSpec, logical: n, sp: sp, groupIDs: groupIDs}, nil
}

// sourceOverrides are the stream's options its source takes over the
// table's (max_files_per_trigger and the like): what planStream reads the
// source with, and STOP STREAM opens it with for its stop signal.
func sourceOverrides(opts map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range opts {
		if registry.IsStreamOption(k) {
			out[k] = v
		}
	}
	return out
}

// runStream plans the stream's query, wires it to the runner and runs it.
func (e *Engine) runStream(ctx context.Context, name string, s streamWrite, spec streamSpec) (*Result, error) {
	ps, err := e.planStream(ctx, name, s, spec, false)
	if err != nil {
		return nil, err
	}
	qctx, trig, lockTTL, t, sinkSpec, p, src := ps.qctx, ps.trig, ps.lockTTL, ps.table, ps.sinkSpec, ps.sp.Plan, ps.sp.Source
	groupIDs := ps.groupIDs
	if spec.Source != p.StreamTable {
		e.recordStreamSource(name, p.StreamTable)
	}
	if c, ok := src.(io.Closer); ok {
		// A source holding a connection (a notification queue) lets go of
		// it; what it did not acknowledge is redelivered.
		defer c.Close()
	}
	// The static sides are read now, before the checkpoint restores the
	// joins' state over them.
	if _, err := prepare(qctx, p); err != nil {
		return nil, err
	}
	store, prefix, err := e.resolveCheckpoint(qctx, spec.Checkpoint)
	if err != nil {
		return nil, fmt.Errorf("stream %s: checkpoint %s: %w", name, spec.Checkpoint, err)
	}
	writeID, err := (&stream.Checkpoint{Store: store, Prefix: prefix}).WriteID(qctx)
	if err != nil {
		return nil, fmt.Errorf("stream %s: checkpoint %s: %w", name, spec.Checkpoint, err)
	}
	sopts := connector.SinkOptions{FilePrefix: name, WriteID: writeID, GroupIDs: groupIDs, TempDir: e.tempDir()}
	sink, err := registry.OpenSink(qctx, sinkSpec, e.env(ctx), sopts)
	if err != nil {
		return nil, fmt.Errorf("stream %s: opening %s: %w", name, t.Spec.Name, err)
	}
	if spec.sink != nil {
		sink = spec.sink.wrap(sink)
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
		Sink: t.Spec.Name, Started: e.now()}, d)
	workers, err := workersOption(spec.Options)
	if err != nil {
		return nil, usererr.Wrap(usererr.Invalid, fmt.Errorf("stream %s: %w", name, err))
	}
	if err := e.jobs.Register(ctx, rs); err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	q := &stream.Query{
		Name: name, Checkpoint: &stream.Checkpoint{Store: store, Prefix: prefix}, Trigger: trig,
		Clock: e.clock(), Source: src, LockTTL: lockTTL, Scan: p.StreamScan, Root: p.Root, Sink: sink,
		Owner:     fmt.Sprintf("pid %d on %s", os.Getpid(), host),
		EventTime: p.EventTime,
		Slots:     e.opts.EpochSlots,
		OnStart:   job.OnStarted(ctx),
		OnProgress: func(p stream.Progress) {
			rs.Update(func(st *job.Status) {
				st.Last = p
				// Since the stream's first epoch, across runs and restarts.
				st.Epochs = p.Epoch + 1
				st.RowsIn, st.RowsOut = p.Totals.RowsIn, p.Totals.RowsOut
				st.BadRows, st.LateRows = p.Totals.BadRows, p.Totals.Late
			})
			if e.opts.StreamProgress != nil {
				e.opts.StreamProgress(p)
			}
		},
	}
	if p.EventTime != nil {
		q.Watermark = stream.NewWatermark(p.EventDelay, idle)
	}
	if len(p.Lookups) > 0 {
		clock := e.clock()
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
		err = e.runWorker(runCtx, rs, q, src, workers, spec.Options)
	} else {
		err = q.Run(runCtx, rs.Stopping())
	}
	rs.Finish()
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
	// now (a stop request, answered, leaves it stopped).
	rec := stream.RunStatus{State: st.State, Error: st.LastError, Time: e.now().UnixMicro()}
	if rs.StopRequested() && rec.State == job.StateSuccess {
		rec.State = "stopped"
	}
	if werr := q.Checkpoint.WriteRunStatus(context.WithoutCancel(ctx), rec); werr != nil && err == nil {
		err = fmt.Errorf("stream %s: recording its end: %w", name, werr)
	}
	if err != nil {
		return nil, err
	}
	return message("stream %s stopped after %d epochs: %d rows in, %d rows out", name, st.Epochs, st.RowsIn, st.RowsOut), nil
}

func (e *Engine) clock() stream.Clock {
	if e.opts.Clock != nil {
		return e.opts.Clock
	}
	return stream.SystemClock{}
}

// resolveCheckpoint opens the checkpoint location as a store and prefix.
func (e *Engine) resolveCheckpoint(ctx context.Context, loc string) (storage.Store, string, error) {
	if !strings.Contains(loc, "://") {
		if err := os.MkdirAll(loc, 0o755); err != nil {
			return nil, "", err
		}
	}
	s3 := map[string]string{}
	for k, v := range e.session(ctx).settingsCopy() {
		if rest, ok := strings.CutPrefix(k, "s3."); ok {
			s3[rest] = v
		}
	}
	so, err := storage.OptionsFromMap(s3)
	if err != nil {
		return nil, "", err
	}
	st, prefix, err := storage.Resolve(ctx, loc, so)
	if err != nil {
		return nil, "", err
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return st, prefix, nil
}
