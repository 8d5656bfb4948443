package server

import (
	"context"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"sluice/internal/job"
	"sluice/internal/stream"
)

// Scheduler runs every background stream of one server: the engine hands
// it each stream (job.Background), and the streams share one epoch
// semaphore, so at most Slots epochs run at once whatever the number of
// streams. Stop cancels them all (each finishes its epoch in flight) and
// waits for them up to a deadline.
//
// Epochs come before API queries: the epoch slots are theirs alone; API
// queries are bounded apart (querySlots, --max-concurrent-queries),
// admitted at once or refused with 429, and while an epoch runs they pass
// the priority gate one at a time (query_priority.go), so 64 clients
// querying leave a stream most of its throughput.
type Scheduler struct {
	slots  stream.Semaphore
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	log    *slog.Logger

	mu      sync.Mutex
	running map[string]int // streams by name, for logs and shutdown reports
}

var _ job.Background = (*Scheduler)(nil)

// NewScheduler returns a scheduler running at most maxEpochs epochs at
// once (0: GOMAXPROCS). log hears of each stream that fails and of a
// stop that missed its deadline; nil is slog.Default().
func NewScheduler(maxEpochs int, log *slog.Logger) *Scheduler {
	if maxEpochs <= 0 {
		maxEpochs = runtime.GOMAXPROCS(0)
	}
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Scheduler{slots: stream.NewSemaphore(maxEpochs), ctx: ctx, cancel: cancel, log: log, running: map[string]int{}}
}

// Slots is the semaphore the engine's streams take around each epoch.
func (s *Scheduler) Slots() stream.Semaphore { return s.slots }

// Go implements job.Background.
func (s *Scheduler) Go(name string, run func(ctx context.Context) error) {
	s.wg.Add(1)
	s.mu.Lock()
	s.running[name]++
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			if s.running[name]--; s.running[name] <= 0 {
				delete(s.running, name)
			}
			s.mu.Unlock()
		}()
		s.log.Debug("stream running", "stream", name)
		if err := run(s.ctx); err != nil {
			s.log.Error("stream failed", "stream", name, "error", err.Error())
			return
		}
		s.log.Debug("stream ended", "stream", name)
	}()
}

// Running lists the streams whose goroutine has not returned yet.
func (s *Scheduler) Running() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.running))
	for n := range s.running {
		out = append(out, n)
	}
	return out
}

// Stop asks every stream to stop at its next epoch boundary and waits up
// to deadline for them. It reports false when some were still running
// then: their epoch in flight is not committed and is replayed from the
// checkpoint on the next start, so stopping late loses nothing.
func (s *Scheduler) Stop(deadline time.Duration) bool {
	s.cancel()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(deadline):
		s.log.Warn("streams still running at the stop deadline", "deadline", deadline.String(), "streams", s.Running())
		return false
	}
}
