package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
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

// Query states reported by the query manager.
const (
	StateWaiting   = "waiting"
	StateRunning   = "running"
	StateSuccess   = "success"
	StateFailed    = "failed"
	StateCancelled = "cancelled"
)

// streamSpec is a stream definition as kept in the catalog.
type streamSpec struct {
	Table      string            `json:"table"`
	Trigger    string            `json:"trigger,omitempty"`
	Checkpoint string            `json:"checkpoint"`
	Options    map[string]string `json:"options,omitempty"`
	// Desired is the state the stream was asked to be in (DesiredRunning,
	// DesiredStopped); empty for streams only ever run in the foreground.
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

// StreamStatus is what SHOW STREAMS and DESCRIBE STREAM report.
type StreamStatus struct {
	Name       string
	State      string
	Trigger    string
	Checkpoint string
	Sink       string
	Started    time.Time
	Last       stream.Progress
	Epochs     int64
	RowsIn     int64
	RowsOut    int64
	BadRows    int64
	// LateRows is the total dropped as late since the stream started here.
	LateRows  int64
	LastError string
	// Attempts counts the retries of a background stream since it
	// started here; NextAttempt is when the next runs, while State is
	// retrying (see retry.go).
	Attempts    int
	NextAttempt time.Time
	// QueueUnreachable counts the runs that failed because the stream's
	// queue could not be reached, since it started here (across retries).
	QueueUnreachable int64 `json:",omitempty"`
	// Source is what the stream's source tells of itself (a notification
	// queue's counters and backlog), key/value rows for DESCRIBE STREAM.
	Source [][2]string `json:",omitempty"`
	// Worker is "slot i of n" for a stream shared by several processes.
	Worker string `json:",omitempty"`
	// Slot and Slots are Worker in numbers; Slots is 0 for a stream this
	// process runs alone.
	Slot  int `json:",omitempty"`
	Slots int `json:",omitempty"`
	// Queue is the Source's queue in numbers, nil without one.
	Queue *connector.QueueStatus `json:",omitempty"`
	// Keyed is the partition ownership of a keyed (windowed) stream shared
	// by workers, nil otherwise.
	Keyed *connector.KeyedStatus `json:",omitempty"`
}

// runningStream is a stream this process is running.
type runningStream struct {
	mu     sync.Mutex
	status StreamStatus
	// retryStop, while the stream is retrying, is closed by STOP.
	retryStop chan struct{}
	stop      chan struct{}
	once      sync.Once
	done      chan struct{}
	// source, when set, adds its rows to the status.
	source connector.StreamDescriber
	// stopToken: the checkpoint's stop marker a worker found at its start
	// (a retry keeps it, so a STOP sent during the backoff still counts).
	stopToken string
	// stopTokenKnown: stopToken was read (a run watched, or a wait to
	// retry read it), so "" means there was no marker.
	stopTokenKnown bool
}

func (r *runningStream) requestStop() { r.once.Do(func() { close(r.stop) }) }

func (r *runningStream) snapshot() StreamStatus {
	r.mu.Lock()
	st, src := r.status, r.source
	r.mu.Unlock()
	if src != nil {
		st.Source = src.StreamDescription()
		if q, ok := src.(connector.QueueReporter); ok {
			if qs, ok := q.QueueStatus(); ok {
				st.Queue = &qs
			}
		}
		if k, ok := src.(connector.KeyedReporter); ok {
			ks := k.KeyedStatus()
			st.Keyed = &ks
		}
	}
	return st
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
		spec.Desired = DesiredRunning
	}
	raw, _ := json.Marshal(spec)
	obj := &catalog.Object{Kind: "stream", Name: name, SQL: s.String(), Options: raw, Created: e.now()}
	prev, _ := e.catalog.Object("stream", name)
	if err := e.catalog.PutObject(obj, true); err != nil {
		return nil, fmt.Errorf("INSERT STREAM %s: %w", name, err)
	}
	before := e.streamRun(name)
	r, err := e.launch(ctx, name, func(ctx context.Context) (*Result, error) {
		return e.runStream(ctx, name, insertWrite(s), spec)
	}, func() { _ = e.setStreamDesired(name, DesiredStopped) })
	var mismatch *stream.StateMismatchError
	if err != nil && (e.streamRun(name) == before || errors.As(err, &mismatch)) {
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
	rs := &runningStream{stop: make(chan struct{}), done: make(chan struct{}), status: StreamStatus{
		Name: name, State: StateRunning, Trigger: trig.String(), Checkpoint: spec.Checkpoint,
		Sink: t.Spec.Name, Started: e.now()}}
	if d, ok := src.(connector.StreamDescriber); ok {
		rs.source = d
	}
	workers, err := workersOption(spec.Options)
	if err != nil {
		return nil, usererr.Wrap(usererr.Invalid, fmt.Errorf("stream %s: %w", name, err))
	}
	if err := e.registerStream(ctx, rs); err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	q := &stream.Query{
		Name: name, Checkpoint: &stream.Checkpoint{Store: store, Prefix: prefix}, Trigger: trig,
		Clock: e.clock(), Source: src, LockTTL: lockTTL, Scan: p.StreamScan, Root: p.Root, Sink: sink,
		Owner:     fmt.Sprintf("pid %d on %s", os.Getpid(), host),
		EventTime: p.EventTime,
		Slots:     e.opts.EpochSlots,
		OnStart:   onStarted(ctx),
		OnProgress: func(p stream.Progress) {
			rs.mu.Lock()
			rs.status.Last = p
			// Since the stream's first epoch, across runs and restarts.
			rs.status.Epochs = p.Epoch + 1
			rs.status.RowsIn, rs.status.RowsOut = p.Totals.RowsIn, p.Totals.RowsOut
			rs.status.BadRows, rs.status.LateRows = p.Totals.BadRows, p.Totals.Late
			rs.mu.Unlock()
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
			rs.requestStop()
		case <-rs.done:
			return
		}
		select {
		case <-Abandon(ctx):
			hardCancel()
		case <-rs.done:
		}
	}()
	abandoned := int64(-1)
	q.OnAbandon = func(epoch int64) { abandoned = epoch }
	if workers > 1 {
		err = e.runWorker(runCtx, rs, q, src, workers, spec.Options)
	} else {
		err = q.Run(runCtx, rs.stop)
	}
	close(rs.done)
	if err == nil && abandoned >= 0 {
		err = fmt.Errorf("stream %s: abandoned epoch %d (it will be replayed on the next start)", name, abandoned)
	}
	rs.mu.Lock()
	switch {
	case err != nil && abandoned >= 0:
		rs.status.State, rs.status.LastError = StateCancelled, err.Error()
	case err != nil:
		rs.status.State, rs.status.LastError = StateFailed, err.Error()
	case ctx.Err() != nil:
		rs.status.State = StateCancelled
	default:
		rs.status.State = StateSuccess
	}
	st := rs.status
	rs.mu.Unlock()
	// What a later process says about the stream is what this one says
	// now (a stop request, answered, leaves it stopped).
	rec := stream.RunStatus{State: st.State, Error: st.LastError, Time: e.now().UnixMicro()}
	select {
	case <-rs.stop:
		if rec.State == StateSuccess {
			rec.State = "stopped"
		}
	default:
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

func (e *Engine) registerStream(ctx context.Context, rs *runningStream) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.streams == nil {
		e.streams = map[string]*runningStream{}
	}
	k := strings.ToLower(rs.status.Name)
	old, ok := e.streams[k]
	if ok && old.snapshot().State == StateRunning {
		return usererr.Errorf(usererr.Exists, "stream %s is already running in this process", rs.status.Name)
	}
	if prev := retryOf(ctx); prev != nil {
		// A retry's run: it replaces the retrying run it follows, unless a
		// STOP came first.
		if old != prev || prev.snapshot().State != StateRetrying {
			return errStoppedWhileRetrying
		}
		st := prev.snapshot()
		carryRetry(&st, &rs.status)
		prev.mu.Lock()
		rs.stopToken, rs.stopTokenKnown = prev.stopToken, prev.stopTokenKnown // stopMarked's
		prev.mu.Unlock()
	}
	e.streams[k] = rs
	return nil
}

// streamRun is the latest run of the named stream in this process (nil
// when there was none): a statement that compares it before and after
// knows whether its stream started at all.
func (e *Engine) streamRun(name string) *runningStream {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.streams[strings.ToLower(name)]
}

// stopIfRunning stops a stream running in this process at its next epoch
// boundary and waits for it; false when it is not running here.
func (e *Engine) stopIfRunning(stream string) bool {
	e.mu.Lock()
	rs := e.streams[strings.ToLower(stream)]
	if rs != nil && stopRetrying(rs) {
		e.mu.Unlock()
		return true
	}
	e.mu.Unlock()
	if rs == nil || rs.snapshot().State != StateRunning {
		return false
	}
	rs.requestStop()
	<-rs.done
	return true
}
