package job

import (
	"context"
	"strings"
	"sync"
	"time"

	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// Config is what a Manager needs of the engine that runs the streams.
type Config[R any] struct {
	// Now is the clock of statuses and query times (the engine's, UTC);
	// nil means time.Now.
	Now func() time.Time
	// Background, when set, runs streams in the background (Launch);
	// nil runs them in the foreground of their statement.
	Background Background
	// RetryInitial and RetryMax are the backoff of retries (RetryDelay);
	// a negative RetryInitial turns retries off.
	RetryInitial, RetryMax time.Duration
	// Warn, when set, hears a foreground stream's retries; it redacts.
	Warn func(msg string)
	// Message makes a statement's result of a message Launch says for it
	// ("stream s started"); it redacts. Required.
	Message func(format string, args ...any) R
	// StopMarker is the stop marker at the top of the named stream's
	// checkpoint, how STOP STREAM reaches a stream waiting to retry from
	// another process; nil when the stream has none to read (it is not a
	// catalog stream, or its checkpoint does not open). shared is true
	// for a stream run by several workers: the Manager clears the marker
	// of a stream that is not shared once it counted, as runs do, and
	// never a shared one. Nil StopMarker: no stream has a marker.
	StopMarker func(ctx context.Context, name string) (m StopMarker, shared bool)
}

// StopMarker is a stream checkpoint's stop marker (*stream.Checkpoint):
// StopToken is "" without a request and changes with each request.
type StopMarker interface {
	StopToken(ctx context.Context) string
	ClearStop(ctx context.Context) error
}

// Manager is the registry of the streams this process runs (one latest
// Run per stream name, case-insensitive) and of the queries submitted to
// run in the background (StartQuery). It launches streams in the foreground
// or through Config.Background, retries failed runs with backoff, and
// stops them. R is the engine's statement result. Safe for concurrent
// use; the zero value is not usable: call NewManager.
type Manager[R any] struct {
	cfg Config[R]

	// mu guards runs, and orders STOP against a retry's registration.
	mu   sync.Mutex
	runs map[string]*Run
	qs   queries[R]
}

// NewManager is a Manager with no run and no query yet.
func NewManager[R any](cfg Config[R]) *Manager[R] {
	return &Manager[R]{cfg: cfg, runs: map[string]*Run{}, qs: queries[R]{byID: map[string]*managedQuery[R]{}}}
}

func (m *Manager[R]) now() time.Time {
	if m.cfg.Now != nil {
		return m.cfg.Now()
	}
	return time.Now()
}

// Current is the latest run of the named stream in this process (nil
// when there was none): a statement that compares it before and after
// knows whether its stream started at all.
func (m *Manager[R]) Current(name string) *Run {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[strings.ToLower(name)]
}

// IsRunning reports whether the named stream runs in this process
// (running, or retrying between runs).
func (m *Manager[R]) IsRunning(name string) bool {
	r := m.Current(name)
	if r == nil {
		return false
	}
	st := r.Snapshot().State
	return st == StateRunning || st == StateRetrying
}

// Local is the status of every stream this process has run, by
// lower-case stream name, from memory only.
func (m *Manager[R]) Local() map[string]Status {
	m.mu.Lock()
	rs := make(map[string]*Run, len(m.runs))
	for k, r := range m.runs {
		rs[k] = r
	}
	m.mu.Unlock()
	out := make(map[string]Status, len(rs))
	for k, r := range rs {
		out[k] = r.Snapshot()
	}
	return out
}

// Register makes r the stream's current run. It fails (usererr.Exists)
// while another run of the stream is running here. In a retry's run (ctx
// from Launch's retry loop) r replaces the retrying run it follows,
// taking over its counters and stop marker, unless a STOP came first:
// then it fails with an error Launch takes for a stop.
func (m *Manager[R]) Register(ctx context.Context, r *Run) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := strings.ToLower(r.status.Name)
	old, ok := m.runs[k]
	if ok && old.Snapshot().State == StateRunning {
		return usererr.Errorf(usererr.Exists, "stream %s is already running in this process", r.status.Name)
	}
	if prev := retryOf(ctx); prev != nil {
		// A retry's run: it replaces the retrying run it follows, unless a
		// STOP came first.
		if old != prev || prev.Snapshot().State != StateRetrying {
			return errStoppedWhileRetrying
		}
		st := prev.Snapshot()
		carryRetry(&st, &r.status)
		prev.mu.Lock()
		r.stopToken, r.stopTokenKnown = prev.stopToken, prev.stopTokenKnown // stopMarked's
		prev.mu.Unlock()
	}
	m.runs[k] = r
	return nil
}

// registerFailed records a stream that failed before it registered a run
// of its own, so waitRetry finds it (and STOP, once it is retrying).
func (m *Manager[R]) registerFailed(name string, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := strings.ToLower(name)
	if old, ok := m.runs[k]; ok && old.Snapshot().State == StateRunning {
		return
	}
	r := NewRun(Status{Name: name, State: StateFailed, LastError: sql.RedactError(err).Error(), Started: m.now()}, nil)
	r.Finish()
	m.runs[k] = r
}

// StopIfRunning stops a stream running in this process at its next epoch
// boundary and waits for it (a retrying one at once); false when it is
// not running here.
func (m *Manager[R]) StopIfRunning(name string) bool {
	m.mu.Lock()
	r := m.runs[strings.ToLower(name)]
	if r != nil && stopRetrying(r) {
		m.mu.Unlock()
		return true
	}
	m.mu.Unlock()
	if r == nil || r.Snapshot().State != StateRunning {
		return false
	}
	r.RequestStop()
	<-r.done
	return true
}

type (
	startedKey  struct{}
	retryKey    struct{}
	resumingKey struct{}
)

// OnStarted is what the run Launch started calls once its stream started
// (planned, checkpoint locked, state restored: stream.Query.OnStart); nil
// when nobody waits for that.
func OnStarted(ctx context.Context) func() {
	f, _ := ctx.Value(startedKey{}).(func())
	return f
}

// WithResuming marks ctx as a resume's (the engine's Resume): Launch
// retries its streams even when they fail before they start, since a
// store down at startup comes back.
func WithResuming(ctx context.Context) context.Context {
	return context.WithValue(ctx, resumingKey{}, true)
}

func resuming(ctx context.Context) bool {
	v, _ := ctx.Value(resumingKey{}).(bool)
	return v
}

// withRetryOf marks ctx as a retry's run following r.
func withRetryOf(ctx context.Context, r *Run) context.Context {
	return context.WithValue(ctx, retryKey{}, r)
}

func retryOf(ctx context.Context) *Run {
	r, _ := ctx.Value(retryKey{}).(*Run)
	return r
}
