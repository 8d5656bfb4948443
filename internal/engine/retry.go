package engine

import (
	"context"
	"errors"
	"strings"
	"time"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

// StateRetrying is a background stream whose last run failed with an
// error that may pass (a sink or store that did not answer): it runs
// again from its checkpoint at StreamStatus.NextAttempt.
const StateRetrying = "retrying"

// Default backoff of background streams' retries (Options.RetryInitial
// and RetryMax): 1 s after the first failure, doubling each time, never
// more than 5 minutes apart. Retries go on as long as the failures are
// transient; a run that commits an epoch starts the backoff over.
const (
	DefaultRetryInitial = time.Second
	DefaultRetryMax     = 5 * time.Minute
)

// retryable reports whether a stream that failed with err may succeed by
// running again unchanged. User errors (a table dropped meanwhile, a row
// an expression cannot compute), a plan that does not bind, state that
// does not match the checkpoint's and state over the memory limit fail
// the same way every time: they are permanent. Anything else (a store or
// sink that failed or did not answer) is worth another run, which
// restarts from the last commit and so replays the failed epoch: the
// sinks' exactly-once replay makes that safe.
func retryable(err error) bool {
	var pe *plan.Error
	var mismatch *stream.StateMismatchError
	var tooLarge *exec.StateTooLargeError
	switch {
	case err == nil, usererr.IsUser(err), errors.As(err, &mismatch), errors.As(err, &tooLarge):
		return false
	case errors.As(err, &pe):
		return pe.Err != nil && !usererr.IsUser(pe.Err)
	}
	return true
}

// retryDelay is the wait before retry attempt n (1 for the first).
func (e *Engine) retryDelay(n int) time.Duration {
	d, limit := e.opts.RetryInitial, e.opts.RetryMax
	if d <= 0 {
		d = DefaultRetryInitial
	}
	if limit <= 0 {
		limit = DefaultRetryMax
	}
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// waitRetry records that stream name failed with err and will run again
// after its backoff, then waits: true when it is time to run again,
// false when the stream was stopped (STOP STREAM, here or, through the
// checkpoint's stop marker, in another process) or the process shuts
// down meanwhile. The stream reads retrying, with the error and the time
// of the next attempt, until the next run registers.
func (e *Engine) waitRetry(ctx context.Context, name string, err error, attempt int) bool {
	delay := e.retryDelay(attempt)
	e.mu.Lock()
	rs := e.streams[strings.ToLower(name)]
	if rs == nil {
		e.mu.Unlock()
		return false
	}
	rs.mu.Lock()
	if rs.status.State != StateFailed && rs.status.State != StateRetrying {
		// Stopped or cancelled while it failed: not ours to rerun.
		rs.mu.Unlock()
		e.mu.Unlock()
		return false
	}
	rs.status.State, rs.status.LastError = StateRetrying, sql.RedactError(err).Error()
	rs.status.Attempts, rs.status.NextAttempt = attempt, e.now().Add(delay)
	if errors.Is(err, connector.ErrUnreachable) {
		rs.status.QueueUnreachable++
	}
	rs.retryStop = make(chan struct{})
	stop := rs.retryStop
	rs.mu.Unlock()
	e.mu.Unlock()
	marked := e.stopMarked(ctx, name, rs)
	poll := time.NewTicker(stopPoll)
	defer poll.Stop()
	t := time.NewTimer(delay)
	defer t.Stop()
	// The marker is read every stopPoll and once more when the wait ends,
	// so backoffs shorter than stopPoll see it too.
	stopIfMarked := func() {
		if marked != nil && marked() {
			e.mu.Lock()
			stopRetrying(rs)
			e.mu.Unlock()
		}
	}
wait:
	for {
		select {
		case <-t.C:
			stopIfMarked()
			break wait
		case <-stop:
			break wait
		case <-ctx.Done():
			break wait
		case <-poll.C:
			stopIfMarked()
			select {
			case <-stop:
				break wait
			default:
			}
		}
	}
	// Whatever woke us, decide under the lock STOP takes, so a STOP
	// either lands before the next run registers (and it does not run)
	// or finds that run and stops it.
	e.mu.Lock()
	defer e.mu.Unlock()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	select {
	case <-stop:
		rs.status.State = StateSuccess // as a stream STOP STREAM stopped
		return false
	default:
	}
	if ctx.Err() != nil {
		rs.status.State, rs.status.NextAttempt = StateCancelled, time.Time{}
		return false
	}
	return true
}

// carryRetry moves what a retrying stream's status accumulated onto the
// run that replaces it, so its counters and attempts span its retries.
func carryRetry(old, next *StreamStatus) {
	next.Started = old.Started
	next.Epochs += old.Epochs
	next.RowsIn += old.RowsIn
	next.RowsOut += old.RowsOut
	next.BadRows += old.BadRows
	next.LateRows += old.LateRows
	next.Last = old.Last
	next.Attempts = old.Attempts
	next.QueueUnreachable = old.QueueUnreachable
	next.LastError = old.LastError
}

// stopRetrying stops a retrying stream (under e.mu); false when rs is
// not retrying.
func stopRetrying(rs *runningStream) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.status.State != StateRetrying || rs.retryStop == nil {
		return false
	}
	select {
	case <-rs.retryStop:
	default:
		close(rs.retryStop)
	}
	rs.status.State, rs.status.NextAttempt = StateSuccess, time.Time{} // as a stream STOP STREAM stopped
	return true
}

type retryKey struct{}

// errStoppedWhileRetrying ends a retry's run that a STOP overtook.
var errStoppedWhileRetrying = errors.New("stream stopped while waiting to retry")

// withRetryOf marks ctx as a retry's run following rs.
func withRetryOf(ctx context.Context, rs *runningStream) context.Context {
	return context.WithValue(ctx, retryKey{}, rs)
}

func retryOf(ctx context.Context) *runningStream {
	rs, _ := ctx.Value(retryKey{}).(*runningStream)
	return rs
}

// failRetrying marks rs failed with err when a retry's run failed before
// it registered a run of its own (its plan, or its sink, failed to open),
// so the stream does not read retrying forever.
func (e *Engine) failRetrying(rs *runningStream, err error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.status.State == StateRetrying {
		rs.status.State, rs.status.LastError, rs.status.NextAttempt = StateFailed, sql.RedactError(err).Error(), time.Time{}
	}
}

type resumingKey struct{}

// resuming reports whether ctx is Resume's: its streams are retried even
// when they fail before they start.
func resuming(ctx context.Context) bool {
	v, _ := ctx.Value(resumingKey{}).(bool)
	return v
}

// resumeRetryError tells launch that a resumed stream failed before it
// started and retries in the background.
type resumeRetryError struct{ err error }

func (e *resumeRetryError) Error() string { return e.err.Error() }

// registerFailed records a stream that failed before it registered a run
// of its own, so waitRetry finds it (and STOP, once it is retrying).
func (e *Engine) registerFailed(name string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.streams == nil {
		e.streams = map[string]*runningStream{}
	}
	k := strings.ToLower(name)
	if old, ok := e.streams[k]; ok && old.snapshot().State == StateRunning {
		return
	}
	done := make(chan struct{})
	close(done)
	e.streams[k] = &runningStream{stop: make(chan struct{}), done: done, status: StreamStatus{
		Name: name, State: StateFailed, LastError: sql.RedactError(err).Error(), Started: e.now()}}
}
