package crashtest

import (
	"strings"
	"testing"
	"time"
)

// race starts two processes on one checkpoint at once: exactly one runs
// the stream, the other fails fast saying the stream is already running;
// the sink then holds each row once.
func race(t *testing.T, s *scenario, rows int) {
	t.Helper()
	// The catalog is one file per data directory and not shared safely
	// between processes creating tables at once: create them first, as
	// an operator would.
	s.exec(t, s.setup...)
	// Each epoch holds for a while so the two surely overlap.
	hold := s.env
	s.env = append(append([]string{}, s.env...), envHold+"=300ms")
	a, aErr := s.start(t)
	b, bErr := s.start(t)
	t0 := time.Now()
	ea, eb := a.Wait(), b.Wait()
	s.env = hold
	switch {
	case ea == nil && eb != nil:
		checkLockedMessage(t, bErr.String(), time.Since(t0))
	case eb == nil && ea != nil:
		checkLockedMessage(t, aErr.String(), time.Since(t0))
	default:
		t.Fatalf("want exactly one process to proceed: a=%v (%s) b=%v (%s)", ea, aErr, eb, bErr)
	}
	s.catchUp(t)
	s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
	s.compare(t, rows)
}

func checkLockedMessage(t *testing.T, stderr string, took time.Duration) {
	t.Helper()
	if !strings.Contains(stderr, "stream is already running") || !strings.Contains(stderr, "held by") {
		t.Fatalf("the loser should say who holds the checkpoint, got: %s", stderr)
	}
	t.Logf("loser: %s", strings.TrimSpace(stderr))
}

func TestTwoProcessesRaceLocal(t *testing.T) {
	race(t, localScenario(t, 6), 6*50*3/5)
}
