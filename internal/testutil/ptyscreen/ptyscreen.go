// Package ptyscreen runs an interactive program on a pseudo-terminal of
// a fixed size, seen through a terminal emulator: what a user would see,
// cell by cell, after the program's escape sequences (readline's
// redraws, completion listings, prompt_toolkit's screens). Tests type
// into it and wait for what the screen shows.
package ptyscreen

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
)

// Screen is a pseudo-terminal and the emulator that draws what is
// written to it.
type Screen struct {
	t    testing.TB
	ptmx *os.File
	// TTY is the program's side: its stdin, stdout and stderr.
	TTY *os.File
	vt  vt10x.Terminal
	mu  sync.Mutex // vt's writes against reads of the screen
}

// Open makes a cols × rows pseudo-terminal; the test is skipped where
// there is none. The caller starts its program on TTY and registers
// its own Cleanup to end it; the terminal closes after that (Cleanups
// run last first).
func Open(t testing.TB, cols, rows int) *Screen {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		t.Fatal(err)
	}
	s := &Screen{t: t, ptmx: ptmx, TTY: tty, vt: vt10x.New(vt10x.WithSize(cols, rows), vt10x.WithWriter(ptmx))}
	t.Cleanup(func() {
		tty.Close()
		ptmx.Close()
	})
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				s.mu.Lock()
				_, _ = s.vt.Write(buf[:n])
				s.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// Text is the screen as lines, trailing blanks cut and trailing empty
// lines dropped.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := strings.Split(s.vt.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// WaitFor waits until the screen holds want, and then until it stops
// changing (a redraw done), and returns it.
func (s *Screen) WaitFor(want string) string {
	s.t.Helper()
	return s.WaitUntil(want, func(text string) bool { return strings.Contains(text, want) })
}

// WaitUntil waits until ok(screen) holds, and then until the screen stops
// changing; what names the wait in the failure.
func (s *Screen) WaitUntil(what string, ok func(text string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok(s.Text()) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", what, s.Text())
		}
		time.Sleep(20 * time.Millisecond)
	}
	last := s.Text()
	for stable := 0; stable < 5 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		if now := s.Text(); now == last {
			stable++
		} else {
			last, stable = now, 0
		}
	}
	return last
}

// Type sends keys as a user types them: one write per key, so a line
// editor sees each (a Tab among them completes).
func (s *Screen) Type(keys string) {
	s.t.Helper()
	for _, r := range keys {
		if _, err := s.ptmx.Write([]byte(string(r))); err != nil {
			s.t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
