package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
)

// Scan is the leaf of a stage: the splits of one source, read in parallel.
type Scan struct {
	// Name labels the scan in errors: the table it reads.
	Name   string
	Source connector.Source
	// Splits are what Run reads; nil until listed (see ListScans).
	Splits []connector.Split
	// Parallelism is the number of worker goroutines; <= 0 means GOMAXPROCS.
	Parallelism int
	// Local, when set, builds a fresh chain of stateless operators (filter,
	// project) for each worker, so decoding and filtering run in parallel.
	// They see only Process: no watermarks, no EndEpoch.
	Local func() ([]Operator, error)
	// Unordered lets the stage take batches as workers produce them,
	// each with its input position, when its first operator takes any
	// order (TakesAnyOrder); otherwise batches come in split order. The
	// planner sets it only where the output cannot tell the difference.
	Unordered bool
	// MergeInOrder lets the scan's workers fold their splits into
	// partials of the stage's first operator, merged in split order
	// (see InOrderPartials). The planner sets it where the operator is
	// one a stream does not keep across epochs.
	MergeInOrder bool
	// BufferBytes bounds the bytes of batches read but not yet consumed
	// under unordered delivery; <= 0 means DefaultBufferBytes.
	BufferBytes int64
}

// Stage is a chain of operators fed by a scan or, for UNION ALL, by the
// outputs of several input stages, which run one after the other.
type Stage struct {
	Scan   *Scan
	Inputs []*Stage
	Ops    []Operator
}

// Observer hears about split progress. Its methods are called from worker
// goroutines, concurrently: implementations must be safe for that.
type Observer interface {
	SplitStarted(id string, size int64)
	SplitDone(id string, rows int64, bytes int64)
}

// Run drives one epoch through root and its inputs into out.
//
// Every split of every scan is read (in parallel, batches delivered in
// split order, or as they come to a stage whose scan is Unordered and
// whose first operator takes any order), each batch is pushed through the stage's operators in the
// calling goroutine, then the watermark (WatermarkEnd for a batch query)
// and EndEpoch go through every chain, inputs first. An operator returning
// ErrLimitReached stops the reading early but not the flush. Operators
// live across Run calls: a streaming query calls Run once per epoch.
// obs may be nil.
func Run(ctx context.Context, root *Stage, watermark int64, out Output, obs Observer) error {
	if root == nil {
		return errors.New("running plan: no stage")
	}
	d := &driver{obs: obs, watermark: watermark, prof: profileFrom(ctx)}
	top := d.build(root, out)
	if err := d.read(ctx, top); err != nil && !errors.Is(err, ErrLimitReached) {
		return err
	}
	return d.finish(ctx, top)
}

type driver struct {
	obs       Observer
	watermark int64
	prof      *Profile // EXPLAIN ANALYZE's, or nil
}

// chain is the runtime wiring of one stage: step(i) delivers to ops[i],
// step(len(ops)) to tail.
type chain struct {
	stage  *Stage
	ops    []Operator
	full   []bool // ops[i] returned ErrLimitReached: it wants no more rows
	tail   Output
	parent *chain // the chain tail feeds, for a union input
	inputs []*chain
	prof   *Profile // nil unless EXPLAIN ANALYZE
	// entry is the time spent in sends to step(0), for a scan's share.
	entry time.Duration
}

func (d *driver) build(st *Stage, tail Output) *chain {
	c := &chain{stage: st, ops: st.Ops, full: make([]bool, len(st.Ops)), tail: tail, prof: d.prof}
	for _, in := range st.Inputs {
		child := d.build(in, unionInput{c.step(0)})
		child.parent = c
		c.inputs = append(c.inputs, child)
	}
	return c
}

func (c *chain) step(i int) Output { return step{c: c, i: i} }

// isFull reports whether rows entering the chain can no longer reach the
// output.
func (c *chain) isFull() bool {
	if len(c.ops) > 0 {
		return c.full[0]
	}
	if c.parent != nil {
		return c.parent.isFull()
	}
	return false
}

type step struct {
	c *chain
	i int
}

// Send delivers m to operator i. A watermark always travels the whole
// chain, skipping operators that are full (their output is not wanted).
func (s step) Send(ctx context.Context, m Message) error {
	if p := s.c.prof; p != nil {
		t0 := time.Now()
		runs := s.i < len(s.c.ops) && !s.c.full[s.i]
		err := s.send(ctx, m)
		dt := time.Since(t0)
		if s.i > 0 {
			p.sent(s.c.ops[s.i-1], m, dt)
		} else {
			s.c.entry += dt
		}
		if runs {
			p.spent(s.c.ops[s.i], dt)
		}
		return err
	}
	return s.send(ctx, m)
}

func (s step) send(ctx context.Context, m Message) error {
	c := s.c
	if s.i == len(c.ops) {
		return c.tail.Send(ctx, m)
	}
	next := c.step(s.i + 1)
	if m.IsWatermark() {
		if c.full[s.i] {
			return next.Send(ctx, m)
		}
		err := c.ops[s.i].OnWatermark(ctx, m.Watermark, next)
		if errors.Is(err, ErrLimitReached) {
			c.full[s.i] = true
			return next.Send(ctx, m)
		}
		return err
	}
	if c.full[s.i] {
		return ErrLimitReached
	}
	err := c.ops[s.i].Process(ctx, m.Batch, next)
	if errors.Is(err, ErrLimitReached) {
		c.full[s.i] = true
	}
	return err
}

// unionInput passes an input stage's rows to the union's chain; the
// union's own watermark is sent once, after every input has flushed.
type unionInput struct{ next Output }

func (u unionInput) Send(ctx context.Context, m Message) error {
	if m.IsWatermark() {
		return nil
	}
	return u.next.Send(ctx, m)
}

// read feeds every input of c; ErrLimitReached means c wants no more.
func (d *driver) read(ctx context.Context, c *chain) error {
	if sc := c.stage.Scan; sc != nil {
		var err error
		t0, entry0 := time.Now(), c.entry
		if first, ok := c.anyOrderEntry(); ok && sc.Unordered {
			err = d.scanUnordered(ctx, sc, c, first)
		} else {
			err = d.scan(ctx, sc, c, c.inOrderEntry(sc))
		}
		if d.prof != nil {
			d.prof.scanned(sc, 0, 0, time.Since(t0)-(c.entry-entry0))
		}
		if err != nil {
			return err
		}
	}
	for _, in := range c.inputs {
		if c.isFull() {
			return ErrLimitReached
		}
		err := d.read(ctx, in)
		if err != nil && !errors.Is(err, ErrLimitReached) {
			return err
		}
	}
	if c.isFull() {
		return ErrLimitReached
	}
	return nil
}

// finish sends the watermark then EndEpoch through c, inputs first.
func (d *driver) finish(ctx context.Context, c *chain) error {
	for _, in := range c.inputs {
		if err := d.finish(ctx, in); err != nil {
			return err
		}
	}
	if err := c.step(0).Send(ctx, Message{Watermark: d.watermark}); err != nil && !errors.Is(err, ErrLimitReached) {
		return fmt.Errorf("flushing at watermark: %w", err)
	}
	for i, op := range c.ops {
		t0 := time.Now()
		err := op.EndEpoch(ctx, c.step(i+1))
		if c.prof != nil {
			c.prof.spent(op, time.Since(t0))
		}
		if err != nil {
			if errors.Is(err, ErrLimitReached) {
				c.full[i] = true
				continue
			}
			return fmt.Errorf("ending epoch in %s: %w", op, err)
		}
	}
	return nil
}

// item is what a worker hands the driver goroutine: a batch, a partial
// (see InOrderPartials) or the error that ended the split. pos is the
// batch's input position when the worker folds partials.
type item struct {
	batch   arrow.RecordBatch
	partial Partial
	pos     Pos
	size    int64 // the batch's bytes in its feed's gate
	err     error
}

// splitFeed carries one split's batches in order; workers fill feeds in
// split order and the driver drains them in the same order, so output
// order does not depend on worker timing.
type splitFeed struct {
	idx  int
	id   string
	name string // id as errors show it (SplitName)
	ch   chan item
	gate *byteGate // nil: only ch's capacity bounds the feed
}

// feedDepth is a folded feed's capacity: its partials are large.
const feedDepth = 4

// feedItems bounds a plain feed's batches; its bytes are bounded by the
// feed's gate, a share of the scan's BufferBytes. A split read ahead of
// the one being drained must hold enough to keep its worker busy the
// whole time the driver takes over the earlier split, or the scan runs
// one worker at a time behind a slow split (a filter that keeps few
// rows sends many small batches).
const feedItems = 256

// scan reads sc's splits on its workers and pushes their batches into
// c's entry in split order. With merger, workers fold their splits into
// partials that merger merges in split order.
func (d *driver) scan(ctx context.Context, sc *Scan, c *chain, merger InOrderPartials) error {
	if len(sc.Splits) == 0 {
		return nil
	}
	if merger != nil && len(sc.Splits) >= 1<<(63-PosSplitShift) {
		merger = nil
	}
	entry := c.step(0)
	par := sc.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	par = min(par, len(sc.Splits))
	bound := sc.BufferBytes
	if bound <= 0 {
		bound = DefaultBufferBytes
	}
	feedBytes := bound / int64(2*par)

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()

	next := make(chan splitFeed)
	// ahead bounds the splits dispatched but not yet drained: backpressure
	// across splits, and a LIMIT stops after reading only a few. Feeds are
	// made as they are dispatched, so only those hold buffers.
	ahead := make(chan struct{}, 2*par)
	order := make(chan splitFeed, 2*par)
	var wg sync.WaitGroup
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.worker(wctx, sc, next, merger)
		}()
	}
	// The dispatcher hands splits out in order and stops on cancel.
	go func() {
		defer close(next)
		defer close(order)
		for i, s := range sc.Splits {
			select {
			case ahead <- struct{}{}:
			case <-wctx.Done():
				return
			}
			f := splitFeed{idx: i, id: s.ID(), name: SplitName(s)}
			if merger != nil {
				f.ch = make(chan item, feedDepth)
			} else {
				f.ch, f.gate = make(chan item, feedItems), newByteGate(feedBytes)
			}
			order <- f // never blocks: ahead holds a token for it
			select {
			case next <- f:
			case <-wctx.Done():
				// An undispatched feed closes empty so the reader never waits.
				close(f.ch)
				return
			}
		}
	}()
	var fed []splitFeed // feeds taken from order, for stop to drain
	stop := func() {
		cancel()
		wg.Wait()
		for f := range order {
			fed = append(fed, f)
		}
		for _, f := range fed {
			drain(f.ch)
		}
	}

	for f := range order {
		fed = append(fed[:0], f)
		// The stage's operators learn which split a failing row is from.
		sctx := withSplit(ctx, f.id)
		for it := range f.ch {
			if it.err != nil {
				stop()
				if ctx.Err() != nil {
					return ctx.Err()
				}
				var pe *partialError
				if errors.As(it.err, &pe) {
					// The worker's partial failed where the stage would have.
					return fmt.Errorf("processing split %s: %w", f.name, pe.err)
				}
				return fmt.Errorf("reading split %s: %w", f.name, it.err)
			}
			var err error
			switch {
			case it.partial != nil:
				err = merger.MergePartial(sctx, it.partial)
			case merger != nil:
				err = c.sendAt(sctx, merger, it.batch, it.pos)
				it.batch.Release()
			default:
				err = entry.Send(sctx, Message{Batch: it.batch})
				it.batch.Release()
				f.gate.release(it.size)
			}
			if err != nil {
				stop()
				if errors.Is(err, ErrLimitReached) {
					return err
				}
				return fmt.Errorf("processing split %s: %w", f.name, err)
			}
		}
		if err := ctx.Err(); err != nil {
			// A worker cut short by cancellation closes its feed silently,
			// and feeds never dispatched hold no token.
			stop()
			return err
		}
		<-ahead
	}
	stop()
	// A cancelled dispatcher stops handing out feeds: the scan did not
	// read everything.
	return ctx.Err()
}

// drain releases what a cancelled worker left in a feed.
func drain(ch chan item) {
	for {
		select {
		case it, ok := <-ch:
			if !ok {
				return
			}
			if it.batch != nil {
				it.batch.Release()
			}
			if it.partial != nil {
				it.partial.Release()
			}
		default:
			return
		}
	}
}

func (d *driver) worker(ctx context.Context, sc *Scan, next <-chan splitFeed, merger InOrderPartials) {
	var local *chain
	var localErr error
	if sc.Local != nil {
		ops, err := sc.Local()
		if err != nil {
			localErr = fmt.Errorf("building scan operators: %w", err)
		} else {
			local = &chain{ops: ops, full: make([]bool, len(ops))}
		}
	}
	for f := range next {
		if ctx.Err() != nil {
			close(f.ch)
			continue
		}
		err := localErr
		if err == nil && merger != nil {
			err = d.readSplitFolded(ctx, sc, f.idx, local, merger, f.ch)
		} else if err == nil {
			err = d.readSplit(ctx, sc, sc.Splits[f.idx], local, false, feedEmit(f))
		}
		if err != nil {
			select {
			case f.ch <- item{err: err}:
			case <-ctx.Done():
			}
		}
		close(f.ch)
	}
}

// feedEmit hands batches to an ordered feed, within its gate's bytes.
func feedEmit(f splitFeed) func(context.Context, arrow.RecordBatch) error {
	return func(ctx context.Context, b arrow.RecordBatch) error {
		size := rowBytes(b)
		if err := f.gate.acquire(ctx, size); err != nil {
			return err
		}
		b.Retain()
		select {
		case f.ch <- item{batch: b, size: size}:
			return nil
		case <-ctx.Done():
			b.Release()
			f.gate.release(size)
			return ctx.Err()
		}
	}
}

// readSplit reads one split through the worker's local chain and hands
// each non-empty batch to emit, which retains what it keeps.
//
// With dict (and no scan operators) batches are read through
// connector.DictReader where the reader has it: emit must take
// dictionary columns (see DictionaryPartials).
func (d *driver) readSplit(ctx context.Context, sc *Scan, split connector.Split, local *chain, dict bool, emit func(context.Context, arrow.RecordBatch) error) error {
	id := split.ID()
	if d.obs != nil {
		d.obs.SplitStarted(id, split.Size())
	}
	r, err := sc.Source.Open(ctx, split)
	if err != nil {
		return fmt.Errorf("opening: %w", err)
	}
	closed := false
	defer func() {
		if !closed {
			r.Close()
		}
	}()

	var rows int64
	// emitErr tells an error of the consumers (which have taken rows)
	// from one of the scan's own operators (which have not).
	var emitErr error
	send := OutputFunc(func(ctx context.Context, m Message) error {
		if m.IsWatermark() || m.Batch.NumRows() == 0 {
			return nil
		}
		if err := emit(ctx, m.Batch); err != nil {
			emitErr = err
			return err
		}
		return nil
	})
	var entry Output = send
	if local != nil {
		local.tail = send
		for i := range local.full {
			local.full[i] = false
		}
		entry = local.step(0)
	}
	next := r.Next
	if dr, ok := r.(connector.DictReader); ok && dict && local == nil {
		next = dr.NextDict
	}
	for {
		// Decoders need not watch ctx: a cancelled epoch stops here, at
		// most one batch later, even when the scan's own operators filter
		// every row out and nothing blocks on a full feed.
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		rows += b.NumRows()
		err = entry.Send(ctx, Message{Batch: b})
		if err != nil && local != nil && emitErr == nil && isRowError(err) {
			if rep, ok := r.(connector.RowErrorReporter); ok {
				err = sendRowByRow(ctx, entry, b, rows-b.NumRows(), rep, &emitErr)
			}
		}
		b.Release()
		if errors.Is(err, ErrLimitReached) {
			break
		}
		if err != nil {
			return err
		}
	}
	closed = true
	if err := r.Close(); err != nil {
		return fmt.Errorf("closing: %w", err)
	}
	if d.obs != nil {
		d.obs.SplitDone(id, rows, split.Size())
	}
	if d.prof != nil {
		d.prof.scanned(sc, rows, 0, 0)
	}
	return nil
}
