package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Background runs streams for a long-running process (sluice serve).
// With Options.Background set, INSERT STREAM, START STREAM and every
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

// Desired states of a stream, as the catalog records what it was asked
// to be in: a process with Options.Background resumes the running ones.
const (
	DesiredRunning = "running"
	DesiredStopped = "stopped"
)

type startedKey struct{}

// onStarted is what runStream calls once its stream started (nil when
// nobody waits for that).
func onStarted(ctx context.Context) func() {
	f, _ := ctx.Value(startedKey{}).(func())
	return f
}

// launch runs one stream: in the foreground without Options.Background;
// else through it, returning once the stream started (or failed before
// it could). settle, when set, runs after a background stream ended by
// itself or was stopped (not when the process shuts down or the stream
// failed), unless another run of the same stream replaced it.
func (e *Engine) launch(ctx context.Context, name string, run func(context.Context) (*Result, error), settle func()) (*Result, error) {
	// The stream keeps the session as it is now: a later USE or SET in it,
	// or its expiry, does not reach the running stream (nor its retries).
	sess := e.session(ctx).detached()
	ctx = WithSession(ctx, sess)
	if e.opts.Background == nil {
		return e.runForeground(ctx, name, run)
	}
	started := make(chan struct{})
	done := make(chan error, 1)
	var once sync.Once
	e.opts.Background.Go(name, func(bg context.Context) error {
		var mine, prev *runningStream
		attempt := 0
		for {
			var epochsBefore int64
			rctx := context.WithValue(WithSession(bg, sess), startedKey{}, func() {
				mine = e.streamRun(name)
				once.Do(func() { close(started) })
			})
			if prev != nil {
				rctx = withRetryOf(rctx, prev)
				epochsBefore = prev.snapshot().Epochs
			}
			_, err := run(rctx)
			canRetry := err != nil && bg.Err() == nil && e.opts.RetryInitial >= 0 && retryable(err)
			if prev == nil {
				if canRetry && !isClosed(started) && resuming(ctx) {
					// A resume that failed before it started is retried
					// too: a store that is down at startup comes back.
					e.registerFailed(name, err)
					done <- &resumeRetryError{err: err}
				} else {
					done <- err
				}
			}
			if errors.Is(err, errStoppedWhileRetrying) {
				err = nil
			} else if canRetry && (isClosed(started) || resuming(ctx)) {
				if cur := e.streamRun(name); cur != nil && cur.snapshot().Epochs > epochsBefore {
					attempt = 0 // it got going again: back off from the start
				}
				attempt++
				if e.waitRetry(bg, name, err, attempt) {
					prev = e.streamRun(name)
					continue
				}
				err = nil // stopped, or shutting down, while it waited
			}
			if err != nil && prev != nil {
				e.failRetrying(prev, err)
			}
			// OnStart runs on this goroutine, so mine is set once started.
			if err == nil && bg.Err() == nil && settle != nil && (isClosed(started) || prev != nil) {
				if cur := e.streamRun(name); cur == mine || cur == prev {
					settle()
				}
			}
			return err
		}
	})
	select {
	case <-started:
		return message("stream %s started", name), nil
	case err := <-done:
		var rr *resumeRetryError
		if errors.As(err, &rr) {
			return message("stream %s is retrying: %v", name, rr.err), nil
		}
		if err != nil {
			return nil, err
		}
		return message("stream %s stopped before it started", name), nil
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// setStreamDesired records the state a stream was asked to be in.
func (e *Engine) setStreamDesired(name, desired string) error {
	o, spec, err := e.streamDef(name)
	if err != nil {
		return err
	}
	if spec.Desired == desired {
		return nil
	}
	spec.Desired = desired
	raw, _ := json.Marshal(spec)
	o.Options = raw
	if err := e.catalog.PutObject(o, true); err != nil {
		return fmt.Errorf("stream %s: recording state %s: %w", name, desired, err)
	}
	return nil
}

// Resume starts, through Options.Background, every stream the catalog
// records as asked to run and every materialized view with auto_refresh =
// true: after a restart (clean or not) each resumes from its checkpoint.
// It returns the names of those started; the error joins one error per
// stream that could not start, each naming it, and the others still run.
func (e *Engine) Resume(ctx context.Context) ([]string, error) {
	if e.opts.Background == nil {
		return nil, errors.New("resuming streams: the engine runs no background streams")
	}
	ctx = context.WithValue(ctx, resumingKey{}, true)
	var started []string
	var errs []error
	streams, err := e.catalog.Objects("stream")
	if err != nil {
		return nil, fmt.Errorf("resuming streams: %w", err)
	}
	for _, o := range streams {
		var spec streamSpec
		if err := json.Unmarshal(o.Options, &spec); err != nil || spec.Desired != DesiredRunning {
			continue
		}
		if _, err := e.startStream(ctx, o.Name); err != nil {
			errs = append(errs, fmt.Errorf("resuming stream %s: %w", o.Name, err))
			continue
		}
		started = append(started, o.Name)
	}
	views, err := e.catalog.Objects("mview")
	if err != nil {
		return started, errors.Join(append(errs, fmt.Errorf("resuming materialized views: %w", err))...)
	}
	for _, o := range views {
		var spec mviewSpec
		if err := json.Unmarshal(o.Options, &spec); err != nil || !spec.AutoRefresh {
			continue
		}
		if _, err := e.refreshMView(ctx, o.Name, spec); err != nil {
			errs = append(errs, fmt.Errorf("resuming materialized view %s: %w", o.Name, err))
			continue
		}
		started = append(started, "mv_"+strings.ToLower(o.Name))
	}
	indexes, err := e.resumeSkippingIndexes(ctx)
	return append(started, indexes...), errors.Join(append(errs, err)...)
}

// isRunning reports whether the named stream runs in this process.
func (e *Engine) isRunning(name string) bool {
	rs := e.streamRun(name)
	if rs == nil {
		return false
	}
	st := rs.snapshot().State
	return st == StateRunning || st == StateRetrying
}
