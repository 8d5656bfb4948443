// Package lockwait is how Sluice waits for a lock another process holds
// (the catalog's, a local index's): by polling a non-blocking attempt, so
// that the wait says what it waits for once it lasts (a blocking flock
// is silent and deaf to signals: a `sluice sql` beside a server used to
// hang with no word, ignoring SIGTERM), and so that it ends as soon as
// its context, or the process's (Bind), is done.
package lockwait

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"
)

// Poll is how often a wait retries; After, how long it waits before it
// tells the user (Notify).
var (
	Poll  = 50 * time.Millisecond
	After = time.Second
)

var (
	mu      sync.Mutex
	process = context.Background()
	notify  = func(msg string) { fmt.Fprintln(os.Stderr, "sluice: "+msg) }
)

// Bind makes every wait also end when ctx is done, until the returned
// func restores the previous binding. The CLI binds its SIGINT/SIGTERM
// context: some waits (the catalog's) sit under APIs that carry no
// context of their own.
func Bind(ctx context.Context) (restore func()) {
	mu.Lock()
	defer mu.Unlock()
	prev := process
	process = ctx
	return func() {
		mu.Lock()
		defer mu.Unlock()
		process = prev
	}
}

// SetNotify sets where the "waiting for" lines go (default: stderr)
// until the returned func restores the previous one.
func SetNotify(f func(msg string)) (restore func()) {
	mu.Lock()
	defer mu.Unlock()
	prev := notify
	notify = f
	return func() {
		mu.Lock()
		defer mu.Unlock()
		notify = prev
	}
}

func bound() (context.Context, func(string)) {
	mu.Lock()
	defer mu.Unlock()
	return process, notify
}

// Wait calls try until it reports done or fails. what names the lock for
// the user ("the catalog lock of ./sluice-data"); holder, called once the
// wait has lasted After, may say who holds it ("" if unknown). A done ctx
// (or Bind's) ends the wait with an error naming what it waited for.
func Wait(ctx context.Context, what string, holder func() string, try func() (bool, error)) error {
	if ctx == nil {
		ctx = context.Background()
	}
	proc, say := bound()
	start := time.Now()
	told := false
	t := time.NewTicker(Poll)
	defer t.Stop()
	for {
		ok, err := try()
		if err != nil || ok {
			if ok && told {
				say(fmt.Sprintf("got %s after %s", what, time.Since(start).Round(100*time.Millisecond)))
			}
			return err
		}
		if !told && time.Since(start) >= After {
			told = true
			msg := "waiting for " + what
			if holder != nil {
				if h := holder(); h != "" {
					msg += " (held by " + h + ")"
				}
			}
			say(msg)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("stopped waiting for %s: %w", what, ctx.Err())
		case <-proc.Done():
			return fmt.Errorf("stopped waiting for %s: %w", what, proc.Err())
		case <-t.C:
		}
	}
}
