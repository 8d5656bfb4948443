package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/storage"
)

// NoWatermark is the watermark of a stream without event time: nothing
// is ever late and no window closes before the stream is stopped.
const NoWatermark = math.MinInt64

const noWatermark = NoWatermark

// Query is one streaming query: a compiled plan whose Scan is fed one
// epoch of splits at a time, a sink, and a checkpoint.
type Query struct {
	Name       string
	Checkpoint *Checkpoint
	Trigger    Trigger
	Clock      Clock
	Source     connector.StreamingSource
	// Scan is the leaf of Root that Source feeds: Run sets its Splits for
	// every epoch.
	Scan *exec.Scan
	Root *exec.Stage
	Sink connector.Sink
	// Owner identifies this process in lock messages.
	Owner string
	// OnProgress is called after each committed epoch.
	OnProgress func(Progress)
	// LockTTL is the object-store lease's TTL (0: DefaultLeaseTTL).
	LockTTL time.Duration
	// Retain is how many epochs of offsets, commits and state to keep
	// (default 100).
	Retain int64
	// BeforeEpoch runs before every epoch (refreshing a stream-static
	// join's lookup side, for one).
	BeforeEpoch func(ctx context.Context) error
	// EventTime, when the source has an event-time column, is the operator
	// that drops late rows and reports the largest event time; Watermark
	// turns that into each epoch's watermark.
	EventTime *exec.EventTime
	Watermark *Watermark
	// Slots, when set, is taken around each epoch: streams sharing it run
	// at most cap(Slots) epochs at once.
	Slots Semaphore
	// OnStart is called once the stream holds its checkpoint's lock and
	// has restored its state, just before the first epoch: a caller that
	// runs Run in the background knows then that the stream started.
	OnStart func()
	// OnAbandon, when set, is called (on Run's goroutine) when ctx is
	// cancelled while an epoch whose offsets are recorded has not
	// committed yet: that epoch is abandoned, and the next start replays
	// it.
	OnAbandon func(epoch int64)

	// inFlight is the epoch whose offsets are recorded but which has not
	// committed yet, -1 for none.
	inFlight int64

	lastStart time.Time
	// lastEpochStart is when the previous epoch that ran started.
	lastEpochStart time.Time
	lastWatermark  int64
	// prevWatermark is the watermark the previous epoch ran at (offsets/N-1):
	// the one epoch N judges late rows against.
	prevWatermark int64
	// sinkRetries and sinkDead are the sink's counts at the last epoch,
	// so each Progress carries its own epoch's.
	sinkRetries, sinkDead int64
	// totals are the counts through the last committed epoch (Totals).
	totals Totals
	// CompactEvery is the longest run of deltas after a full snapshot of
	// an exec.Incremental operator (default 32); a full one is also
	// written once the deltas outgrow it. Negative: always full.
	CompactEvery int64

	// ops are Root's stateful operators with their ids (see stateOps).
	ops []exec.StatefulOp
	// chains are, by operator id, the deltas saved since its last full
	// snapshot (see snapshotState).
	chains map[string]*deltaChain
	// phases is the running epoch's time by phase so far.
	phases Phases
	// stateBuf holds one operator's snapshot at a time, reused across
	// operators and epochs (every Store.Put copies what it reads).
	stateBuf bytes.Buffer
}

// ErrStopped is returned by Run when stop was requested (not an error for
// the user: the stream resumes from its checkpoint).
var ErrStopped = errors.New("stream stopped")

// Run drives epochs until ctx is cancelled (abandoning the running epoch,
// which is replayed on the next start), stop is closed (finishing the
// running epoch first), or a 'once' / 'available_now' trigger is caught
// up. It returns nil when the stream ends on its own or is stopped.
func (q *Query) Run(ctx context.Context, stop <-chan struct{}) error {
	if q.Clock == nil {
		q.Clock = SystemClock{}
	}
	if q.Retain == 0 {
		q.Retain = 100
	}
	cp := q.Checkpoint
	lock, err := AcquireLockTTL(ctx, cp, q.Owner, q.LockTTL)
	if err != nil {
		return fmt.Errorf("starting stream %s: %w", q.Name, err)
	}
	defer lock.Release()

	committed, err := cp.Last(ctx, "commits")
	if err != nil {
		return fmt.Errorf("starting stream %s: %w", q.Name, err)
	}
	var last *CommitRecord
	if committed >= 0 {
		if last, err = cp.ReadCommit(ctx, committed); err != nil {
			return fmt.Errorf("starting stream %s: %w", q.Name, err)
		}
	}
	// The state is checked against the plan before anything else moves:
	// a mismatch must leave the checkpoint and the sink as they are.
	if err := q.restoreState(ctx, committed, last); err != nil {
		var mismatch *StateMismatchError
		if errors.As(err, &mismatch) {
			return err
		}
		return fmt.Errorf("starting stream %s: restoring state of epoch %d: %w", q.Name, committed, err)
	}
	q.totals = Totals{}
	if last != nil && last.Totals != nil {
		q.totals = *last.Totals
	}
	if q.Watermark != nil && last != nil && (last.MaxEventTime != 0 || last.NextWatermark != 0) {
		q.Watermark.Restore(last.MaxEventTime, last.NextWatermark)
	}
	if err := q.Source.Recover(ctx, cp.SourceArea(), committed); err != nil {
		return fmt.Errorf("starting stream %s: recovering source: %w", q.Name, err)
	}
	q.prevWatermark = noWatermark
	if committed >= 0 {
		// A crash between commits/N and the source's own record of epoch
		// N would otherwise leave N's input looking new. Source.Commit is
		// idempotent, so repeat it for the last commit.
		rec, err := cp.ReadOffset(ctx, committed)
		if err != nil {
			return fmt.Errorf("starting stream %s: reading offsets/%d: %w", q.Name, committed, err)
		}
		q.prevWatermark = rec.Watermark
		if err := q.Source.Commit(ctx, committed, rec.Source); err != nil {
			return fmt.Errorf("starting stream %s: recording source progress of epoch %d: %w", q.Name, committed, err)
		}
	}
	if q.Trigger.AvailableNow {
		if an, ok := q.Source.(connector.AvailableNowSource); ok {
			if err := an.PrepareAvailableNow(ctx); err != nil {
				return fmt.Errorf("starting stream %s: %w", q.Name, err)
			}
		}
	}
	// A stop request left from before this start is stale.
	_ = cp.ClearStop(ctx)
	if q.OnStart != nil {
		q.OnStart()
	}
	next := committed + 1
	wait := false
	q.inFlight = -1
	for {
		if wait {
			if err := q.waitTrigger(ctx, stop); err != nil {
				return err
			}
		}
		select {
		case <-stop:
			return nil
		default:
		}
		if ctx.Err() != nil {
			return nil
		}
		if cp.StopRequested(ctx) {
			_ = cp.ClearStop(ctx)
			return nil
		}
		if !q.Slots.acquire(ctx, stop) {
			return nil
		}
		ran, err := q.step(ctx, next)
		q.Slots.release()
		if err != nil {
			if ctx.Err() != nil {
				// Cancelled mid-epoch: replayed on restart.
				if q.inFlight >= 0 && q.OnAbandon != nil {
					q.OnAbandon(q.inFlight)
				}
				return nil
			}
			return fmt.Errorf("stream %s epoch %d: %w", q.Name, next, err)
		}
		if ran {
			next++
			if q.Trigger.Once {
				return nil
			}
			wait = q.Trigger.Interval > 0 && !q.Trigger.AvailableNow
			continue
		}
		if q.Trigger.Stops() {
			return nil
		}
		wait = true
	}
}

func (q *Query) waitTrigger(ctx context.Context, stop <-chan struct{}) error {
	d := q.Trigger.Interval
	if d <= 0 {
		d = 100 * time.Millisecond // poll for new data when no interval is set
	}
	// Epochs start on interval boundaries measured from the previous start,
	// as Spark's ProcessingTime trigger does; a long epoch starts the next
	// one immediately.
	if !q.lastStart.IsZero() {
		d = q.lastStart.Add(d).Sub(q.Clock.Now())
	}
	if d <= 0 {
		return nil
	}
	var arrived chan bool
	if a, ok := q.Source.(connector.ArrivalWaiter); ok && q.Trigger.Interval <= 0 {
		// The default trigger runs epochs as soon as there is data: a
		// source told of arrivals starts one when its data comes, not
		// a poll later. A set interval keeps its pace.
		wctx, cancel := context.WithCancel(ctx)
		arrived = make(chan bool, 1)
		go func() { arrived <- a.WaitArrival(wctx, d) }()
		defer func() {
			// The wait never overlaps the epoch: a source is not ready
			// for both at once.
			cancel()
			if arrived != nil {
				<-arrived
			}
		}()
	}
	tick := q.Clock.After(d)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-stop:
			return nil
		case <-tick:
			if arrived != nil {
				// Let the source's receive end by itself: one cut off
				// could lose what it had just been given (an SQS long
				// poll's messages stay invisible until their timeout).
				<-arrived
				arrived = nil
			}
			return nil
		case ok := <-arrived:
			arrived = nil
			if ok {
				return nil
			}
		}
	}
}

// step plans (or replays) epoch n and runs it. ran is false when there
// was nothing new.
func (q *Query) step(ctx context.Context, n int64) (ran bool, err error) {
	cp := q.Checkpoint
	start := q.Clock.Now()
	var offsetWrite time.Duration
	q.phases = Phases{}
	rec, err := cp.ReadOffset(ctx, n)
	replay := err == nil
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return false, fmt.Errorf("reading offsets/%d: %w", n, err)
	}
	if rp, ok := q.Source.(connector.ReplayPreparer); ok && replay {
		if err := rp.PrepareReplay(ctx, rec.Source); err != nil {
			return false, fmt.Errorf("replaying epoch %d: %w", n, err)
		}
	}
	if !replay {
		t0 := time.Now()
		off, err := q.Source.Latest(ctx)
		if err != nil {
			return false, fmt.Errorf("discovering new data: %w", err)
		}
		q.phases.Listing = time.Since(t0)
		wm := int64(noWatermark)
		if q.Watermark != nil {
			wm = q.Watermark.Current()
		}
		if len(off) == 0 && q.Watermark != nil && q.Watermark.IdleTimeout > 0 {
			// An idle source: watermark_idle_timeout lets processing time
			// move the watermark so open windows still close.
			q.Watermark.Observe(NoWatermark, q.Clock.Now().UnixMicro())
			wm = q.Watermark.Current()
		}
		if len(off) == 0 {
			// A no-data epoch: the watermark moved past what the last epoch
			// used, so stateful operators may have windows to close.
			ops, err := q.stateOps()
			if err != nil {
				return false, err
			}
			if q.Watermark == nil || wm <= q.lastWatermark || len(ops) == 0 {
				q.lastStart = start
				return false, nil
			}
			off = connector.Offset("null")
		}
		late := min(q.prevWatermark, wm)
		rec = &OffsetRecord{Epoch: n, Source: off, Watermark: wm, LateWatermark: &late, Time: start.UnixMicro()}
		if q.Watermark != nil {
			rec.MaxEventTime = q.Watermark.MaxEvent()
		}
		t0 = time.Now()
		if err := cp.WriteOffset(ctx, rec); err != nil {
			return false, err
		}
		offsetWrite = time.Since(t0)
		q.phases.Checkpoint = offsetWrite
		crashPoint("planned", n)
	}
	q.inFlight = n
	prevEpochStart := q.lastEpochStart
	q.lastStart, q.lastEpochStart = start, start
	q.lastWatermark = rec.Watermark
	p, err := q.runEpoch(ctx, rec)
	if err != nil {
		return false, err
	}
	q.prevWatermark = rec.Watermark
	p.Replayed = replay
	p.CheckpointWrite += offsetWrite
	p.Duration = q.Clock.Now().Sub(start)
	if secs := p.Duration.Seconds(); secs > 0 {
		p.ProcessRate = float64(p.RowsIn) / secs
	}
	// Input rate: rows that arrived per second of processing time since
	// the previous epoch started (Spark's inputRowsPerSecond).
	if !prevEpochStart.IsZero() {
		if secs := start.Sub(prevEpochStart).Seconds(); secs > 0 {
			p.InputRate = float64(p.RowsIn) / secs
			p.OutputRate = float64(p.RowsOut) / secs
		}
	}
	if q.OnProgress != nil {
		q.OnProgress(p)
	}
	if n%10 == 0 {
		if err := cp.Purge(ctx, n, q.Retain); err != nil {
			return true, fmt.Errorf("purging old checkpoint files: %w", err)
		}
	}
	return true, nil
}

// runEpoch runs the recorded epoch through the plan into the sink, then
// saves state and commits.
func (q *Query) runEpoch(ctx context.Context, rec *OffsetRecord) (Progress, error) {
	cp := q.Checkpoint
	p := Progress{Name: q.Name, Epoch: rec.Epoch, Watermark: rec.Watermark, Time: q.Clock.Now()}
	planStart := time.Now()
	if q.BeforeEpoch != nil {
		if err := q.BeforeEpoch(ctx); err != nil {
			return p, fmt.Errorf("before epoch: %w", err)
		}
	}
	splits, err := q.Source.Plan(ctx, nil, rec.Source)
	if err != nil {
		return p, fmt.Errorf("planning: %w", err)
	}
	q.Scan.Splits = splits
	q.phases.Listing += time.Since(planStart)
	for _, s := range splits {
		p.Bytes += s.Size()
	}
	p.Files = len(splits)
	if rc, ok := q.Source.(connector.ReconcileCounter); ok {
		p.ReconciledFiles = rc.ReconciledFiles(rec.Source)
	}
	groups := q.sinkGroups(rec, splits)
	sinkEpoch := groups[len(groups)-1].id
	out := &countingSink{sink: q.Sink, epoch: rec.Epoch}
	obs := &countingObserver{}
	if q.EventTime != nil {
		q.EventTime.StartEpoch(rec.Watermark, rec.Late())
	}
	runCtx := ctx
	rep, _ := q.Source.(connector.StageRowErrorReporter)
	if rep != nil {
		// Rows failing above the scan are bad rows under the table's mode.
		runCtx = exec.WithRowErrorHandler(ctx, rep.ReportStageRowError)
	}
	// The profile times the readers apart from the operators (its cost
	// is a clock read per batch and operator).
	prof := exec.NewProfile()
	runCtx = exec.WithProfile(runCtx, prof)
	var flush, run time.Duration
	for i, g := range groups {
		if i > 0 {
			t0 := time.Now()
			if err := q.Sink.Flush(ctx, groups[i-1].id); err != nil {
				return p, fmt.Errorf("flushing sink: %w", err)
			}
			flush += time.Since(t0)
		}
		q.Scan.Splits = g.splits
		if b, ok := q.Sink.(connector.EpochBeginner); ok {
			if err := b.BeginEpoch(ctx, g.id); err != nil {
				return p, fmt.Errorf("starting sink epoch: %w", err)
			}
		}
		t0 := time.Now()
		if err := exec.Run(runCtx, q.Root, rec.Watermark, out, obs); err != nil {
			if rep != nil {
				_ = rep.EndStageRowErrors(ctx, false)
			}
			return p, err
		}
		run += time.Since(t0)
	}
	write := time.Duration(out.write.Load())
	q.phases.Reading = min(prof.ScanTime(), run)
	q.phases.Operators = max(run-q.phases.Reading-write, 0)
	if rep != nil {
		if err := rep.EndStageRowErrors(ctx, true); err != nil {
			return p, fmt.Errorf("saving bad rows: %w", err)
		}
	}
	var maxEvent, nextWM int64
	if q.EventTime != nil && q.Watermark != nil {
		q.Watermark.Observe(q.EventTime.MaxEvent(), q.Clock.Now().UnixMicro())
		p.LateRows = q.EventTime.Late()
		maxEvent, nextWM = q.Watermark.MaxEvent(), q.Watermark.Current()
	}
	t0 := time.Now()
	if err := q.Sink.Flush(ctx, sinkEpoch); err != nil {
		return p, fmt.Errorf("flushing sink: %w", err)
	}
	q.phases.Sink = write + flush + time.Since(t0)
	crashPoint("after-flush", rec.Epoch)
	if ss, ok := q.Sink.(connector.SinkStats); ok {
		retries, dead := ss.SinkStats()
		p.SinkRetries, p.DeadLetters = max(retries-q.sinkRetries, 0), max(dead-q.sinkDead, 0)
		q.sinkRetries, q.sinkDead = retries, dead
	}
	cpStart := time.Now()
	manifest, err := q.snapshotState(ctx, rec.Epoch)
	if err != nil {
		return p, fmt.Errorf("saving state: %w", err)
	}
	p.RowsIn, p.RowsOut = obs.rows.Load(), out.rows.Load()
	if bc, ok := q.Source.(connector.BadRowCounter); ok {
		p.BadRows = bc.TakeBadRows()
	}
	totals := q.totals
	totals.add(p)
	phases := q.phases
	phases.Checkpoint += time.Since(cpStart)
	commit := &CommitRecord{Epoch: rec.Epoch, RowsIn: p.RowsIn, RowsOut: p.RowsOut, Files: p.Files,
		Bytes: p.Bytes, Late: p.LateRows, BadRows: p.BadRows, Time: q.Clock.Now().UnixMicro(),
		MaxEventTime: maxEvent, NextWatermark: nextWM, State: manifest, Totals: &totals,
		Phases: phases.JSON(), Duration: q.Clock.Now().Sub(q.lastEpochStart).Microseconds()}
	if err := cp.WriteCommit(ctx, commit); err != nil {
		return p, err
	}
	q.totals, p.Totals = totals, totals
	q.inFlight = -1
	p.CheckpointWrite = time.Since(cpStart)
	q.phases.Checkpoint += p.CheckpointWrite
	p.Phases = q.phases
	if manifest != nil {
		p.State = manifest.Operators
	}
	if maxEvent != NoWatermark {
		p.MaxEventTime = maxEvent
	}
	crashPoint("after-commit", rec.Epoch)
	if err := q.Source.Commit(ctx, rec.Epoch, rec.Source); err != nil {
		return p, fmt.Errorf("recording source progress: %w", err)
	}
	crashPoint("done", rec.Epoch)
	if lr, ok := q.Source.(connector.LagReporter); ok {
		p.LagFiles, p.LagBytes = lr.Lag()
	}
	return p, nil
}

type countingSink struct {
	sink  connector.Sink
	epoch int64
	rows  atomic.Int64
	// write is the nanoseconds spent in the sink's Write: the sink
	// phase's share of exec.Run.
	write atomic.Int64
}

func (c *countingSink) Send(ctx context.Context, m exec.Message) error {
	if m.IsWatermark() || m.Batch.NumRows() == 0 {
		return nil
	}
	first := c.rows.Add(m.Batch.NumRows()) == m.Batch.NumRows()
	if first {
		crashPoint("decoding", c.epoch)
	}
	t0 := time.Now()
	err := c.sink.Write(ctx, m.Batch)
	c.write.Add(int64(time.Since(t0)))
	if err != nil {
		return err
	}
	if first {
		crashPoint("sink-write", c.epoch)
	}
	return nil
}

type countingObserver struct{ rows atomic.Int64 }

func (o *countingObserver) SplitStarted(string, int64) {}
func (o *countingObserver) SplitDone(_ string, rows, _ int64) {
	o.rows.Add(rows)
}
