package job

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

// Default backoff of streams' retries (Config.RetryInitial and
// RetryMax): 1 s after the first failure, doubling each time, never more
// than 5 minutes apart. Retries go on as long as the failures are
// transient; a run that commits an epoch starts the backoff over.
const (
	DefaultRetryInitial = time.Second
	DefaultRetryMax     = 5 * time.Minute
	// UnreachableRetryMax caps the backoff while a broker or queue
	// cannot be reached (connector.ErrUnreachable): such a retry costs
	// one request, and a stream should resume within seconds of the
	// broker's return (a quorum back, a node restarted), not a doubled
	// backoff later. It is the NATS client's own reconnect wait.
	UnreachableRetryMax = 2 * time.Second
)

// Retryable reports whether a stream that failed with err may succeed by
// running again unchanged. User errors (a table dropped meanwhile, a row
// an expression cannot compute), a plan that does not bind, state that
// does not match the checkpoint's and state over the memory limit fail
// the same way every time: they are permanent. Anything else (a store or
// sink that failed or did not answer) is worth another run, which
// restarts from the last commit and so replays the failed epoch: the
// sinks' exactly-once replay makes that safe.
func Retryable(err error) bool {
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

// RetryDelay is the wait before retry attempt n (1 for the first).
func (m *Manager[R]) RetryDelay(n int) time.Duration {
	d, limit := m.cfg.RetryInitial, m.cfg.RetryMax
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

// RetryDelayFor is RetryDelay for a failure with err: at most
// UnreachableRetryMax when err is connector.ErrUnreachable.
func (m *Manager[R]) RetryDelayFor(err error, n int) time.Duration {
	d := m.RetryDelay(n)
	if errors.Is(err, connector.ErrUnreachable) {
		return min(d, UnreachableRetryMax)
	}
	return d
}

// waitRetry records that stream name failed with err and will run again
// after its backoff, then waits: true when it is time to run again,
// false when the stream was stopped (STOP STREAM, here or, through the
// checkpoint's stop marker, in another process) or the process shuts
// down meanwhile. The stream reads retrying, with the error and the time
// of the next attempt, until the next run registers.
func (m *Manager[R]) waitRetry(ctx context.Context, name string, err error, attempt int) bool {
	delay := m.RetryDelayFor(err, attempt)
	m.mu.Lock()
	rs := m.runs[strings.ToLower(name)]
	if rs == nil {
		m.mu.Unlock()
		return false
	}
	rs.mu.Lock()
	if rs.status.State != StateFailed && rs.status.State != StateRetrying {
		// Stopped or cancelled while it failed: not ours to rerun.
		rs.mu.Unlock()
		m.mu.Unlock()
		return false
	}
	rs.status.State, rs.status.LastError = StateRetrying, sql.RedactError(err).Error()
	rs.status.Attempts, rs.status.NextAttempt = attempt, m.now().Add(delay)
	if errors.Is(err, connector.ErrUnreachable) {
		rs.status.QueueUnreachable++
	}
	rs.retryStop = make(chan struct{})
	stop := rs.retryStop
	rs.mu.Unlock()
	m.mu.Unlock()
	marked := m.stopMarked(ctx, name, rs)
	poll := time.NewTicker(stopPoll)
	defer poll.Stop()
	t := time.NewTimer(delay)
	defer t.Stop()
	// The marker is read every stopPoll and once more when the wait ends,
	// so backoffs shorter than stopPoll see it too.
	stopIfMarked := func() {
		if marked != nil && marked() {
			m.mu.Lock()
			stopRetrying(rs)
			m.mu.Unlock()
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
	m.mu.Lock()
	defer m.mu.Unlock()
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

// stopRetrying stops a retrying stream (under Manager.mu); false when rs
// is not retrying.
func stopRetrying(rs *Run) bool {
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

// errStoppedWhileRetrying ends a retry's run that a STOP overtook
// (Register returns it).
var errStoppedWhileRetrying = errors.New("stream stopped while waiting to retry")

// failRetrying marks rs failed with err when a retry's run failed before
// it registered a run of its own (its plan, or its sink, failed to open),
// so the stream does not read retrying forever.
func failRetrying(rs *Run, err error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.status.State == StateRetrying {
		rs.status.State, rs.status.LastError, rs.status.NextAttempt = StateFailed, sql.RedactError(err).Error(), time.Time{}
	}
}

// resumeRetryError tells Launch that a resumed stream failed before it
// started and retries in the background.
type resumeRetryError struct{ err error }

func (e *resumeRetryError) Error() string { return e.err.Error() }
