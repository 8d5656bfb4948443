package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"sluice/internal/testutil/ptyscreen"
)

// TestOpenSearchSQLCLIPPLInteractive runs the OpenSearch SQL plugin's own
// CLI (PyPI opensearchsql) interactively in its PPL mode (-l ppl) on a
// pseudo-terminal against sluice serve, as a user would: its banner, a
// PPL query typed at its prompt and the table it prints, the plugin's
// error report it prints for an unknown field, and Ctrl-D to leave.
func TestOpenSearchSQLCLIPPLInteractive(t *testing.T) {
	cliPath, root, p := cliServer(t)

	s := ptyscreen.Open(t, 120, 60)
	cmd := exec.Command(cliPath, "-l", "ppl", p.url)
	// The terminal is the CLI's own, as in a shell; no pager, no colors
	// to read past.
	cmd.Env = append(os.Environ(), "HOME="+root, "TERM=xterm", "PAGER=cat", "NO_COLOR=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.TTY, s.TTY, s.TTY
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	s.WaitFor("Query Language: ppl")
	s.WaitFor("opensearchsql>")
	s.Type("source=logs | stats count() as n by host | sort host;\r")
	screen := s.WaitFor("fetched rows / total rows = 7/7")
	for _, want := range []string{"| n   | host   |", "| 3   | h0     |", "| 3   | h1     |", "| 2   | h6     |"} {
		s.WaitUntil(want, func(text string) bool { return strings.Contains(text, want) })
	}
	// A field the table does not have: the CLI prints the plugin's
	// error report (the error object of a 400).
	s.Type("source=logs | fields nope;\r")
	screen = s.WaitFor("FIELD_NOT_FOUND")
	for _, want := range []string{"'type': 'IllegalArgumentException'", "'reason': 'Field [nope] not found.'", "'requested_field': 'nope'"} {
		if !strings.Contains(strings.ReplaceAll(screen, "\n", ""), want) {
			t.Errorf("the error report lacks %s:\n%s", want, screen)
		}
	}
	s.Type("\x04") // Ctrl-D
	s.WaitFor("See you next search!")
	select {
	case <-exited:
		if waitErr != nil {
			t.Fatalf("opensearchsql -l ppl exited with %v:\n%s", waitErr, s.Text())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("opensearchsql -l ppl did not end on Ctrl-D:\n%s", s.Text())
	}
}
