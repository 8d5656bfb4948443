package cli

import (
	"context"
	"os"
	"os/signal"
	"time"

	"sluice/internal/job"
)

// DefaultStopTimeout is how long a streaming statement may take, after
// the first SIGINT or SIGTERM, to finish its running epoch before it is
// abandoned (--stop-timeout).
const DefaultStopTimeout = 30 * time.Second

// SignalContext returns a context for running statements that the given
// signals stop in two stages. The first cancels ctx: a batch statement
// stops, a stream stops at its next epoch boundary. A second signal, or
// timeout after the first (0: no timeout), abandons a stream's running
// epoch (see job.WithAbandon), which is safe since epochs replay; from
// then on the signals have their default effect again, so a third one
// kills the process. stop releases the signals.
func SignalContext(parent context.Context, timeout time.Duration, sigs ...os.Signal) (ctx context.Context, stop func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, sigs...)
	ctx, release := stages(parent, ch, timeout, func() { signal.Stop(ch) })
	return ctx, func() {
		signal.Stop(ch)
		release()
	}
}

// stages is SignalContext over a channel of signals; reset runs once the
// second stage is reached.
func stages(parent context.Context, sigs <-chan os.Signal, timeout time.Duration, reset func()) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	abandon := make(chan struct{})
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		var expired <-chan time.Time
		if timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			expired = t.C
		}
		select {
		case <-sigs:
		case <-expired:
		case <-done:
			return
		}
		close(abandon)
		reset()
	}()
	return job.WithAbandon(ctx, abandon), func() {
		close(done)
		cancel()
	}
}
