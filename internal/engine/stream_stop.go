package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/stream"
)

// stopPoll is how often a worker reads the stop marker at the top of the
// stream's checkpoint (the slot's own marker is read every epoch).
var stopPoll = time.Second

// watchWorkerStop makes STOP STREAM, issued in any process, stop this
// worker after its running epoch: at once through the source's
// substrate when it has a stop signal (a JetStream key), and through
// the stop marker at the top of the checkpoint, which workers never
// clear: only a request made after this worker started (or, for a
// retry, after the first attempt started) counts.
// The returned func ends the watch.
func (e *Engine) watchWorkerStop(ctx context.Context, rs *runningStream, base *stream.Checkpoint, src connector.StreamingSource) func() {
	ctx, cancel := context.WithCancel(ctx)
	stale := base.StopToken(ctx)
	if prev := retryOf(ctx); prev != nil {
		prev.mu.Lock()
		stale = prev.stopToken
		prev.mu.Unlock()
	}
	rs.mu.Lock()
	rs.stopToken, rs.stopTokenKnown = stale, true
	rs.mu.Unlock()
	var signal <-chan struct{}
	if ss, ok := src.(connector.StopSignal); ok {
		ch, err := ss.StopWatch(ctx)
		switch {
		case err == nil:
			signal = ch
		case !errors.Is(err, errors.ErrUnsupported):
			e.warnStop(rs, err)
		}
	}
	go func() {
		t := time.NewTicker(stopPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-rs.done:
				return
			case <-signal:
				rs.requestStop()
				return
			case <-t.C:
				if tok := base.StopToken(ctx); tok != "" && tok != stale {
					rs.requestStop()
					return
				}
			}
		}
	}()
	return cancel
}

// warnStop records, without failing the worker, that the queue's stop
// signal cannot be watched (the checkpoint's marker still works).
func (e *Engine) warnStop(rs *runningStream, err error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.status.LastError == "" {
		rs.status.LastError = "watching stop requests: " + err.Error()
	}
}

// broadcastStop sends STOP STREAM to every worker of a stream with
// workers = N through its source's substrate. The stop marker at the
// top of its checkpoint, written by the caller, reaches them too (within
// stopPoll), so a source without a signal is not an error. The source is
// the table the stream recorded when it planned (streamSpec.Source),
// opened as a stream: STOP never plans the query again.
func (e *Engine) broadcastStop(ctx context.Context, name string, spec streamSpec) (bool, error) {
	if spec.Source == "" {
		return false, nil
	}
	t, err := e.catalog.Table(spec.Source)
	if err != nil {
		return false, nil // dropped since: the marker is all there is
	}
	opened, err := registry.OpenSource(ctx, t.Spec, e.env(ctx), sourceOverrides(spec.Options))
	if err != nil {
		return false, fmt.Errorf("stream %s: %w", name, err)
	}
	var src any = opened
	if s, ok := src.(connector.Streamable); ok {
		if _, isStream := src.(connector.StreamingSource); !isStream {
			if src, err = s.Stream(); err != nil {
				return false, fmt.Errorf("stream %s: %w", name, err)
			}
		}
	}
	ss, ok := src.(connector.StopSignal)
	if !ok {
		return false, nil
	}
	if err := ss.RequestStop(ctx); err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			return false, nil
		}
		return false, fmt.Errorf("stopping stream %s's workers: %w", name, err)
	}
	return true, nil
}

// recordStreamSource notes in stream name's definition the table it
// streams from (streamSpec.Source); a stream that is not a catalog
// stream (a view's, an index's) has no definition to note it in.
func (e *Engine) recordStreamSource(name, table string) {
	o, spec, err := e.streamDef(name)
	if err != nil || spec.Source == table {
		return
	}
	spec.Source = table
	raw, _ := json.Marshal(spec)
	o.Options = raw
	_ = e.catalog.PutObject(o, true)
}

// stopWorkers stops a stream run by several workers: its marker at the
// top of the checkpoint and its queue's signal reach the workers of
// every process; this process's own worker stops directly.
func (e *Engine) stopWorkers(ctx context.Context, o *catalog.Object, spec streamSpec) (*Result, error) {
	store, prefix, err := e.resolveCheckpoint(ctx, spec.Checkpoint)
	if err != nil {
		return nil, err
	}
	if err := (&stream.Checkpoint{Store: store, Prefix: prefix}).RequestStop(ctx); err != nil {
		return nil, fmt.Errorf("stopping stream %s: %w", o.Name, err)
	}
	how := "the stop marker in its checkpoint"
	viaQueue, qerr := e.broadcastStop(ctx, o.Name, spec)
	if viaQueue {
		how = "its queue and " + how
	}
	local := e.stopIfRunning(o.Name)
	msg := fmt.Sprintf("stop requested for the workers of stream %s through %s (each stops after its running epoch)", o.Name, how)
	if local {
		msg = fmt.Sprintf("stream %s stopped here; ", o.Name) + msg
	}
	if qerr != nil {
		msg += "; the queue could not carry it: " + qerr.Error()
	}
	return message("%s", msg), nil
}

// stopMarked returns a check, for a stream waiting to retry, of the stop
// marker at the top of its checkpoint: how STOP STREAM reaches it from
// another process while no run watches (nil when the stream has no
// checkpoint to read). A marker counts when it differs from the one the
// stream's first run found (a worker's watch read it), or else from the
// one there when it first waited: a marker left before the start (which
// a run that failed early did not clear) is stale. A single stream's
// marker that counts is cleared, as its runs clear it.
func (e *Engine) stopMarked(ctx context.Context, name string, rs *runningStream) func() bool {
	_, spec, err := e.streamDef(name)
	if err != nil {
		return nil
	}
	store, prefix, err := e.resolveCheckpoint(ctx, spec.Checkpoint)
	if err != nil {
		return nil
	}
	cp := &stream.Checkpoint{Store: store, Prefix: prefix}
	rs.mu.Lock()
	if !rs.stopTokenKnown {
		rs.stopToken, rs.stopTokenKnown = cp.StopToken(ctx), true
	}
	stale := rs.stopToken
	rs.mu.Unlock()
	workers, _ := workersOption(spec.Options)
	return func() bool {
		tok := cp.StopToken(ctx)
		if tok == "" || tok == stale {
			return false
		}
		if workers <= 1 {
			_ = cp.ClearStop(ctx)
		}
		return true
	}
}
