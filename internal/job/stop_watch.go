package job

import (
	"context"
	"errors"
	"time"

	"sluice/internal/connector"
)

// stopPoll is how often a worker reads the stop marker at the top of the
// stream's checkpoint (the slot's own marker is read every epoch), and a
// stream waiting to retry reads it.
var stopPoll = time.Second

// WatchStop makes STOP STREAM, issued in any process, stop run r of a
// worker after its running epoch: at once through the source's
// substrate when src has a stop signal (a JetStream key), and through
// base, the stop marker at the top of the checkpoint, which workers
// never clear: only a request made after this worker started (or, for a
// retry's run, ctx from Launch, after the first attempt started) counts.
// The returned func ends the watch.
func WatchStop(ctx context.Context, r *Run, base StopMarker, src connector.StreamingSource) func() {
	ctx, cancel := context.WithCancel(ctx)
	stale := base.StopToken(ctx)
	if prev := retryOf(ctx); prev != nil {
		prev.mu.Lock()
		stale = prev.stopToken
		prev.mu.Unlock()
	}
	r.mu.Lock()
	r.stopToken, r.stopTokenKnown = stale, true
	r.mu.Unlock()
	var signal <-chan struct{}
	if ss, ok := src.(connector.StopSignal); ok {
		ch, err := ss.StopWatch(ctx)
		switch {
		case err == nil:
			signal = ch
		case !errors.Is(err, errors.ErrUnsupported):
			warnStop(r, err)
		}
	}
	go func() {
		t := time.NewTicker(stopPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-r.done:
				return
			case <-signal:
				r.RequestStop()
				return
			case <-t.C:
				if tok := base.StopToken(ctx); tok != "" && tok != stale {
					r.RequestStop()
					return
				}
			}
		}
	}()
	return cancel
}

// warnStop records, without failing the worker, that the queue's stop
// signal cannot be watched (the checkpoint's marker still works).
func warnStop(r *Run, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status.LastError == "" {
		r.status.LastError = "watching stop requests: " + err.Error()
	}
}

// stopMarked returns a check, for a stream waiting to retry, of the stop
// marker at the top of its checkpoint (Config.StopMarker): how STOP
// STREAM reaches it from another process while no run watches (nil when
// the stream has no checkpoint to read). A marker counts when it differs
// from the one the stream's first run found (a worker's watch read it),
// or else from the one there when it first waited: a marker left before
// the start (which a run that failed early did not clear) is stale. A
// single stream's marker that counts is cleared, as its runs clear it.
func (m *Manager[R]) stopMarked(ctx context.Context, name string, rs *Run) func() bool {
	if m.cfg.StopMarker == nil {
		return nil
	}
	cp, shared := m.cfg.StopMarker(ctx, name)
	if cp == nil {
		return nil
	}
	rs.mu.Lock()
	if !rs.stopTokenKnown {
		rs.stopToken, rs.stopTokenKnown = cp.StopToken(ctx), true
	}
	stale := rs.stopToken
	rs.mu.Unlock()
	return func() bool {
		tok := cp.StopToken(ctx)
		if tok == "" || tok == stale {
			return false
		}
		if !shared {
			_ = cp.ClearStop(ctx)
		}
		return true
	}
}
