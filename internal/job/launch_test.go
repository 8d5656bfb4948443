package job

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sluice/internal/usererr"
)

// goRunner is a Background that runs each stream in a goroutine, until
// stop (the process shutting down).
type goRunner struct {
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
}

var _ Background = (*goRunner)(nil)

func newGoRunner(t *testing.T) *goRunner {
	ctx, cancel := context.WithCancel(context.Background())
	g := &goRunner{ctx: ctx, stop: cancel}
	t.Cleanup(func() { cancel(); g.wg.Wait() })
	return g
}

func (g *goRunner) Go(name string, run func(context.Context) error) {
	g.wg.Add(1)
	go func() { defer g.wg.Done(); _ = run(g.ctx) }()
}

func testManager(bg Background) *Manager[string] {
	return NewManager(Config[string]{Background: bg, RetryInitial: 10 * time.Millisecond, RetryMax: 20 * time.Millisecond,
		Message: func(format string, args ...any) string { return fmt.Sprintf(format, args...) }})
}

// fakeRun is a stream's run: it registers, starts, and then returns the
// next error of errs (nil once they run out) or stops when asked.
func fakeRun(m *Manager[string], name string, runs *atomic.Int32, errs ...error) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		n := int(runs.Add(1)) - 1
		r := NewRun(Status{Name: name, State: StateRunning}, nil)
		if err := m.Register(ctx, r); err != nil {
			return "", err
		}
		if f := OnStarted(ctx); f != nil {
			f()
		}
		var err error
		if n < len(errs) {
			err = errs[n]
		} else {
			select {
			case <-r.Stopping():
			case <-ctx.Done():
			}
		}
		r.Finish()
		r.Update(func(st *Status) {
			if err != nil {
				st.State, st.LastError = StateFailed, err.Error()
			} else {
				st.State = StateSuccess
			}
		})
		return "ran", err
	}
}

func waitState(t *testing.T, m *Manager[string], name, state string) Status {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if r := m.Current(name); r != nil {
			if st := r.Snapshot(); st.State == state {
				return st
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("stream %s never %s: %+v", name, state, m.Local())
		}
	}
}

// TestLaunchBackgroundRetries: a background stream whose run fails with
// a transient error reads retrying, runs again after its backoff with
// its attempts carried over, and settles once it stops.
func TestLaunchBackgroundRetries(t *testing.T) {
	m := testManager(newGoRunner(t))
	var runs atomic.Int32
	settled := make(chan struct{}, 2)
	msg, err := m.Launch(context.Background(), "feed", fakeRun(m, "feed", &runs, errors.New("sink down"), errors.New("sink down")),
		func() { settled <- struct{}{} })
	if err != nil || msg != "stream feed started" {
		t.Fatalf("Launch: %q, %v", msg, err)
	}
	for runs.Load() < 3 {
		time.Sleep(5 * time.Millisecond)
	}
	st := waitState(t, m, "feed", StateRunning)
	if st.Attempts != 2 || st.LastError != "sink down" {
		t.Errorf("third run: attempts %d, last error %q; want 2, sink down", st.Attempts, st.LastError)
	}
	if !m.IsRunning("FEED") {
		t.Error("IsRunning is false for a running stream (names are case-insensitive)")
	}
	if !m.StopIfRunning("feed") {
		t.Fatal("StopIfRunning: not running")
	}
	select {
	case <-settled:
	case <-time.After(5 * time.Second):
		t.Fatal("a stopped stream did not settle")
	}
}

// TestLaunchStopDuringBackoff: STOP while a stream waits to retry ends
// the wait at once; the stream does not run again, reads stopped
// (success) and settles.
func TestLaunchStopDuringBackoff(t *testing.T) {
	m := NewManager(Config[string]{Background: newGoRunner(t), RetryInitial: time.Hour,
		Message: func(format string, args ...any) string { return fmt.Sprintf(format, args...) }})
	var runs atomic.Int32
	settled := make(chan struct{}, 1)
	if _, err := m.Launch(context.Background(), "feed", fakeRun(m, "feed", &runs, errors.New("store: 503")),
		func() { settled <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, m, "feed", StateRetrying)
	if st.Attempts != 1 || st.NextAttempt.IsZero() || st.LastError != "store: 503" {
		t.Errorf("retrying: %+v", st)
	}
	if !m.StopIfRunning("feed") {
		t.Fatal("StopIfRunning: a retrying stream is not running")
	}
	select {
	case <-settled:
	case <-time.After(5 * time.Second):
		t.Fatal("a stream stopped during its backoff did not settle")
	}
	if st := m.Current("feed").Snapshot(); st.State != StateSuccess || !st.NextAttempt.IsZero() {
		t.Errorf("after STOP: %+v", st)
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("%d runs, want 1", n)
	}
	if m.IsRunning("feed") {
		t.Error("IsRunning after STOP")
	}
}

// TestLaunchPermanentError: a run that fails with a user error is not
// retried in the background, nor is one in the foreground that does
// not fail for an unreachable queue; Launch in the foreground returns
// the run's own result.
func TestLaunchPermanentError(t *testing.T) {
	m := testManager(newGoRunner(t))
	var runs atomic.Int32
	bad := usererr.Errorf(usererr.Evaluation, "cannot cast 'x' to BIGINT")
	if _, err := m.Launch(context.Background(), "bad", fakeRun(m, "bad", &runs, bad), nil); err != nil {
		t.Fatal(err)
	}
	waitState(t, m, "bad", StateFailed)
	time.Sleep(50 * time.Millisecond)
	if n := runs.Load(); n != 1 {
		t.Errorf("%d runs of a stream that failed for good, want 1", n)
	}

	fg := testManager(nil)
	runs.Store(0)
	res, err := fg.Launch(context.Background(), "once", fakeRun(fg, "once", &runs, error(nil)), nil)
	if err != nil || res != "ran" {
		t.Errorf("foreground: %q, %v", res, err)
	}
	var downRuns atomic.Int32
	if _, err := fg.Launch(context.Background(), "down", fakeRun(fg, "down", &downRuns, errors.New("sink down")), nil); err == nil || downRuns.Load() != 1 {
		t.Errorf("foreground, transient error: %v after %d runs; want the error after one", err, downRuns.Load())
	}
}

// TestLaunchResumeFailsBeforeStart: a resumed stream that fails before
// it started says it is retrying, and its retry starts it.
func TestLaunchResumeFailsBeforeStart(t *testing.T) {
	m := testManager(newGoRunner(t))
	var runs atomic.Int32
	run := fakeRun(m, "feed", &runs)
	first := true
	msg, err := m.Launch(WithResuming(context.Background()), "feed", func(ctx context.Context) (string, error) {
		if first {
			first = false
			return "", errors.New("store down at startup")
		}
		return run(ctx)
	}, nil)
	if err != nil || !strings.HasPrefix(msg, "stream feed is retrying: store down at startup") {
		t.Fatalf("Launch: %q, %v", msg, err)
	}
	waitState(t, m, "feed", StateRunning)
	if !m.StopIfRunning("feed") {
		t.Fatal("not running")
	}
}

// TestRegisterTwice: a second run of a stream running here is refused.
func TestRegisterTwice(t *testing.T) {
	m := testManager(nil)
	ctx := context.Background()
	if err := m.Register(ctx, NewRun(Status{Name: "s", State: StateRunning}, nil)); err != nil {
		t.Fatal(err)
	}
	if err := m.Register(ctx, NewRun(Status{Name: "S", State: StateRunning}, nil)); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("second Register: %v", err)
	}
}
