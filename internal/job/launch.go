package job

import (
	"context"
	"errors"
	"sync"
)

// Background runs streams for a long-running process (sluice serve).
// With a Background runner, INSERT STREAM, START STREAM and every
// materialized view with auto_refresh = true hand their stream to it and
// return as soon as the stream has started (planned, its checkpoint
// locked, its state restored), instead of running it in the foreground.
//
// Go runs run in a goroutine of its own until run returns, with the
// stream's error (nil when it stopped or ended by itself). The ctx it
// passes is cancelled when the process shuts down; the stream then stops
// at its next epoch boundary and run returns. Go must not block.
type Background interface {
	Go(name string, run func(ctx context.Context) error)
}

// Launch runs one stream: in the foreground without Config.Background
// (runForeground); else through it, returning once the stream started
// (or failed before it could). run is one whole run of the stream: it
// registers a Run (Register) and calls OnStarted(ctx) once started.
//
// A background run that fails with an error Retryable accepts runs
// again after the backoff (RetryDelay), each rerun a whole new run from
// the checkpoint (the crash-recovery path, so the replayed epoch is
// exactly once); in between the stream reads retrying, and STOP (here,
// or through its stop marker) ends the wait. A resumed stream (ctx
// WithResuming) that fails before it started is retried the same way.
//
// settle, when set, runs after a background stream ended by itself or
// was stopped (not when the process shuts down or the stream failed),
// unless another run of the same stream replaced it.
//
// ctx is the statement's: a foreground run gets it, a background run
// the runner's ctx instead (cancelled when the process shuts down). What
// every run needs of the statement (the engine's session, captured
// before the call) run binds to the ctx it gets itself.
func (m *Manager[R]) Launch(ctx context.Context, name string, run func(context.Context) (R, error), settle func()) (R, error) {
	if m.cfg.Background == nil {
		return m.runForeground(ctx, name, run)
	}
	started := make(chan struct{})
	done := make(chan error, 1)
	var once sync.Once
	m.cfg.Background.Go(name, func(bg context.Context) error {
		var mine, prev *Run
		attempt := 0
		for {
			var epochsBefore int64
			rctx := context.WithValue(bg, startedKey{}, func() {
				mine = m.Current(name)
				once.Do(func() { close(started) })
			})
			if prev != nil {
				rctx = withRetryOf(rctx, prev)
				epochsBefore = prev.Snapshot().Epochs
			}
			_, err := run(rctx)
			canRetry := err != nil && bg.Err() == nil && m.cfg.RetryInitial >= 0 && Retryable(err)
			if prev == nil {
				if canRetry && !isClosed(started) && resuming(ctx) {
					// A resume that failed before it started is retried
					// too: a store that is down at startup comes back.
					m.registerFailed(name, err)
					done <- &resumeRetryError{err: err}
				} else {
					done <- err
				}
			}
			if errors.Is(err, errStoppedWhileRetrying) {
				err = nil
			} else if canRetry && (isClosed(started) || resuming(ctx)) {
				if cur := m.Current(name); cur != nil && cur.Snapshot().Epochs > epochsBefore {
					attempt = 0 // it got going again: back off from the start
				}
				attempt++
				if m.waitRetry(bg, name, err, attempt) {
					prev = m.Current(name)
					continue
				}
				err = nil // stopped, or shutting down, while it waited
			}
			if err != nil && prev != nil {
				failRetrying(prev, err)
			}
			// OnStart runs on this goroutine, so mine is set once started.
			if err == nil && bg.Err() == nil && settle != nil && (isClosed(started) || prev != nil) {
				if cur := m.Current(name); cur == mine || cur == prev {
					settle()
				}
			}
			return err
		}
	})
	select {
	case <-started:
		return m.cfg.Message("stream %s started", name), nil
	case err := <-done:
		var rr *resumeRetryError
		if errors.As(err, &rr) {
			return m.cfg.Message("stream %s is retrying: %v", name, rr.err), nil
		}
		if err != nil {
			var zero R
			return zero, err
		}
		return m.cfg.Message("stream %s stopped before it started", name), nil
	}
}
