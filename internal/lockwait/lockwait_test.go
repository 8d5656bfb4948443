package lockwait

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func capture(t *testing.T) func() []string {
	var mu sync.Mutex
	var lines []string
	restore := SetNotify(func(m string) { mu.Lock(); lines = append(lines, m); mu.Unlock() })
	oldAfter := After
	After = 100 * time.Millisecond
	t.Cleanup(func() { After = oldAfter; restore() })
	return func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), lines...) }
}

func TestWaitSaysWhatItWaitsFor(t *testing.T) {
	lines := capture(t)
	free := time.Now().Add(300 * time.Millisecond)
	err := Wait(context.Background(), "the test lock", func() string { return "pid 1" }, func() (bool, error) {
		return time.Now().After(free), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := lines()
	if len(got) != 2 || !strings.Contains(got[0], "waiting for the test lock (held by pid 1)") || !strings.Contains(got[1], "got the test lock") {
		t.Fatalf("lines: %q", got)
	}
}

func TestWaitQuietWhenShort(t *testing.T) {
	lines := capture(t)
	n := 0
	if err := Wait(context.Background(), "x", nil, func() (bool, error) { n++; return n > 1, nil }); err != nil {
		t.Fatal(err)
	}
	if got := lines(); len(got) != 0 {
		t.Fatalf("a short wait printed %q", got)
	}
}

func TestWaitEndsWithTheBoundContext(t *testing.T) {
	capture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer Bind(ctx)()
	time.AfterFunc(200*time.Millisecond, cancel)
	t0 := time.Now()
	err := Wait(context.Background(), "the held lock", nil, func() (bool, error) { return false, nil })
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "the held lock") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Fatalf("took %s to stop", d)
	}
}
