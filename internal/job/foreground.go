package job

import (
	"context"
	"errors"
	"fmt"

	"sluice/internal/connector"
	"sluice/internal/sql"
)

// runForeground runs a stream in the foreground of its statement (sluice
// sql). A run that fails because its queue cannot be reached (a worker's
// NATS, Kafka or SQS is down) runs again after the backoff background
// streams use (RetryDelay), saying so through Config.Warn each time, so
// a worker rides out a broker restart instead of exiting. Every other
// error ends the statement as before. Cancelling ctx (Ctrl-C) ends the
// wait; so does STOP STREAM, from any process, through the checkpoint's
// stop marker (waitRetry).
func (m *Manager[R]) runForeground(ctx context.Context, name string, run func(context.Context) (R, error)) (R, error) {
	before := m.Current(name)
	var prev *Run
	attempt := 0
	for {
		rctx := ctx
		var epochsBefore int64
		if prev != nil {
			rctx = withRetryOf(ctx, prev)
			epochsBefore = prev.Snapshot().Epochs
		}
		res, err := run(rctx)
		if errors.Is(err, errStoppedWhileRetrying) {
			return m.cfg.Message("stream %s stopped", name), nil
		}
		if err == nil || ctx.Err() != nil || m.cfg.RetryInitial < 0 || !errors.Is(err, connector.ErrUnreachable) {
			if err != nil && prev != nil {
				failRetrying(prev, err)
			}
			return res, err
		}
		cur := m.Current(name)
		if cur == nil || cur == before {
			// It failed before it registered a run: record it, so the
			// wait below finds it.
			m.registerFailed(name, err)
			cur = m.Current(name)
		} else if cur.Snapshot().Epochs > epochsBefore {
			attempt = 0 // it got going again: back off from the start
		}
		attempt++
		if w := m.cfg.Warn; w != nil {
			w(fmt.Sprintf("stream %s: %v; retrying in %s (attempt %d; STOP STREAM or Ctrl-C ends it)",
				name, sql.RedactError(err), m.RetryDelayFor(err, attempt), attempt))
		}
		if !m.waitRetry(ctx, name, err, attempt) {
			if ctx.Err() != nil {
				return res, err
			}
			return m.cfg.Message("stream %s stopped", name), nil
		}
		prev = cur
		before = nil
	}
}
