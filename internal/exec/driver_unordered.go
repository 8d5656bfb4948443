package exec

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// DefaultBufferBytes bounds an unordered scan's batches in flight.
const DefaultBufferBytes int64 = 64 << 20

// anyOrderEntry is the chain's first operator when it takes any order.
func (c *chain) anyOrderEntry() (OrderInsensitive, bool) {
	if len(c.ops) == 0 || !TakesAnyOrder(c.ops[0]) {
		return nil, false
	}
	return c.ops[0].(OrderInsensitive), true
}

// sendAt is step(0).Send for a batch delivered out of order.
func (c *chain) sendAt(ctx context.Context, op OrderInsensitive, b arrow.RecordBatch, pos Pos) error {
	if c.full[0] {
		return ErrLimitReached
	}
	var t0 time.Time
	if c.prof != nil {
		t0 = time.Now()
	}
	err := op.ProcessAt(ctx, b, pos, c.step(1))
	if c.prof != nil {
		dt := time.Since(t0)
		c.prof.spent(c.ops[0], dt)
		c.entry += dt
	}
	if errors.Is(err, ErrLimitReached) {
		c.full[0] = true
	}
	return err
}

// posItem is a batch with its input position, a worker's partial, or
// the error that ended split.
type posItem struct {
	batch   arrow.RecordBatch
	partial Partial
	pos     Pos
	size    int64
	split   int
	err     error
}

// scanUnordered reads sc's splits on its workers and pushes each batch
// into first as soon as any worker has it, so a slow split holds up
// nothing but itself. The bytes read ahead of first stay under the
// scan's BufferBytes.
func (d *driver) scanUnordered(ctx context.Context, sc *Scan, c *chain, first OrderInsensitive) error {
	if len(sc.Splits) == 0 {
		return nil
	}
	if len(sc.Splits) >= 1<<(63-PosSplitShift) {
		return fmt.Errorf("reading %s: %d splits is more than positions can number", sc.Name, len(sc.Splits))
	}
	par := sc.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	par = min(par, len(sc.Splits))
	bound := sc.BufferBytes
	if bound <= 0 {
		bound = DefaultBufferBytes
	}
	gate := newByteGate(bound)

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan posItem, par)
	var next atomic.Int64
	var wg sync.WaitGroup
	merger, _ := first.(Partials)
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.unorderedWorker(wctx, sc, &next, gate, merger, items)
		}()
	}
	go func() {
		wg.Wait()
		close(items)
	}()
	stop := func() {
		cancel()
		for it := range items {
			if it.batch != nil {
				it.batch.Release()
			}
			if it.partial != nil {
				it.partial.Release()
			}
		}
	}

	for it := range items {
		if it.err != nil {
			stop()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var pe *partialError
			if errors.As(it.err, &pe) {
				// The worker's partial failed where the stage would have.
				return fmt.Errorf("processing %s: %w", splitLabel(sc, it.split), pe.err)
			}
			return fmt.Errorf("reading %s: %w", splitLabel(sc, it.split), it.err)
		}
		var err error
		if it.partial != nil {
			err = merger.MergePartial(ctx, it.partial)
		} else {
			err = c.sendAt(withSplit(ctx, sc.Splits[it.split].ID()), first, it.batch, it.pos)
			it.batch.Release()
			gate.release(it.size)
		}
		if err != nil {
			stop()
			if errors.Is(err, ErrLimitReached) {
				return err
			}
			return fmt.Errorf("processing %s: %w", splitLabel(sc, it.split), err)
		}
	}
	// A worker cut short by cancellation stops silently.
	return ctx.Err()
}

// splitLabel names split i of sc for an error: "split <name>", or, for a
// worker's last partial (i = -1, many splits folded), "a worker's
// partial result".
func splitLabel(sc *Scan, i int) string {
	if i < 0 || i >= len(sc.Splits) {
		return "a worker's partial result"
	}
	return "split " + SplitName(sc.Splits[i])
}

// unorderedWorker takes the next undispatched split until none is left.
// With a merger it folds its batches into partials of its own (see
// Partials), handed over as they fill and at the end.
func (d *driver) unorderedWorker(ctx context.Context, sc *Scan, next *atomic.Int64, gate *byteGate, merger Partials, items chan<- posItem) {
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
	var part Partial
	hand := func(ctx context.Context, idx int) error {
		p := part
		part = nil
		select {
		case items <- posItem{partial: p, split: idx}:
			return nil
		case <-ctx.Done():
			p.Release()
			return ctx.Err()
		}
	}
	defer func() {
		if part != nil {
			part.Release()
		}
	}()
	for ctx.Err() == nil {
		idx := int(next.Add(1) - 1)
		if idx >= len(sc.Splits) {
			if part != nil {
				// The last partial folds splits of this worker's, none
				// in particular: it names none (splitLabel).
				hand(ctx, -1)
			}
			return
		}
		var row int64
		emit := func(ctx context.Context, b arrow.RecordBatch) error {
			if merger != nil {
				if part == nil {
					p, err := merger.NewPartial()
					if err != nil {
						return err
					}
					part = p
				}
				if err := part.ProcessAt(ctx, b, Pos(int64(idx)<<PosSplitShift+row)); err != nil {
					return &partialError{err}
				}
				row += b.NumRows()
				if groups, rows := part.Size(); groups >= maxPartialGroups {
					if !partialWorthIt(groups, rows) {
						// Groups barely repeat: merging partials would
						// cost more than sending the rows.
						merger = nil
					}
					return hand(ctx, idx)
				}
				return nil
			}
			// Retained: a plain copy when the split reads dictionaries
			// for partials that have stopped.
			b, err := plainBatch(b, -1)
			if err != nil {
				return err
			}
			size := rowBytes(b)
			if err := gate.acquire(ctx, size); err != nil {
				b.Release()
				return err
			}
			it := posItem{batch: b, pos: Pos(int64(idx)<<PosSplitShift + row), size: size, split: idx}
			select {
			case items <- it:
				row += b.NumRows()
				return nil
			case <-ctx.Done():
				b.Release()
				gate.release(size)
				return ctx.Err()
			}
		}
		err := localErr
		if err == nil {
			err = d.readSplit(ctx, sc, sc.Splits[idx], local, merger != nil && takesDictionaries(merger), emit)
		}
		if err != nil {
			select {
			case items <- posItem{err: err, split: idx}:
			case <-ctx.Done():
			}
			return
		}
	}
}

// byteGate is a counting semaphore over bytes. One batch larger than the
// whole bound still passes when nothing else is held, so it cannot stall.
type byteGate struct {
	mu   sync.Mutex
	max  int64
	used int64
	wake chan struct{} // closed and replaced at each release
}

func newByteGate(max int64) *byteGate {
	return &byteGate{max: max, wake: make(chan struct{})}
}

func (g *byteGate) acquire(ctx context.Context, n int64) error {
	for {
		g.mu.Lock()
		if g.used == 0 || g.used+n <= g.max {
			g.used += n
			g.mu.Unlock()
			return nil
		}
		w := g.wake
		g.mu.Unlock()
		select {
		case <-w:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (g *byteGate) release(n int64) {
	g.mu.Lock()
	g.used -= n
	close(g.wake)
	g.wake = make(chan struct{})
	g.mu.Unlock()
}

// partialError is an error of a worker's partial: the stage's operator
// failing, not the split's reading.
type partialError struct{ err error }

func (e *partialError) Error() string { return e.err.Error() }
func (e *partialError) Unwrap() error { return e.err }
