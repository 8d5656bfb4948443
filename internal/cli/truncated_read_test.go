package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCLIFileTruncatedWhileRead: the built binary reads a large file in a
// batch query; the test truncates the file as soon as the process has it
// open (seen in /proc/PID/fd, so no hook in the binary is needed). The
// query must fail with a non-zero exit status and an error saying the
// file changed while being read, never print a count of half the rows.
func TestCLIFileTruncatedWhileRead(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice and writes a 64 MB file")
	}
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc to see the process open the file")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "big.json")
	const rows = 4_000_000 // 16 bytes a row: 64 MB, long enough to read that the truncation lands mid-read
	f, err := os.Create(data)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := 0; i < rows; i++ {
		fmt.Fprintf(w, "{\"n\": %7d}\n", i%10_000_000)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dataDir := filepath.Join(dir, "data")
	// Created apart, so that the query's first open of the file is its read.
	create := "CREATE TABLE big (n BIGINT) USING json LOCATION '" + data + "'"
	if out, err := exec.CommandContext(ctx, bin, "sql", "--data-dir", dataDir, "-e", create).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", create, err, out)
	}
	cmd := exec.CommandContext(ctx, bin, "sql", "--data-dir", dataDir, "-e", "SELECT count(*) FROM big")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var runErr error
	truncated := false
	fdDir := fmt.Sprintf("/proc/%d/fd", cmd.Process.Pid)
wait:
	for {
		select {
		case runErr = <-exited:
			break wait
		default:
		}
		if !truncated && hasOpen(fdDir, data) {
			if err := os.Truncate(data, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
			truncated = true
		}
		time.Sleep(time.Millisecond)
	}
	if !truncated {
		t.Fatalf("the process ended before it was seen reading the file (stdout %q, stderr %q)", stdout.String(), stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(runErr, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("exit: %v, want a non-zero status (stdout %q, stderr %q)", runErr, stdout.String(), stderr.String())
	}
	msg := stderr.String()
	t.Logf("exit %d, stderr: %s", ee.ExitCode(), strings.TrimSpace(msg))
	for _, want := range []string{"big.json", "file changed while being read"} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(stdout.String(), fmt.Sprint(rows/2)) {
		t.Errorf("a partial count was printed: %s", stdout.String())
	}
}

// hasOpen reports whether a process's fd folder links to path.
func hasOpen(fdDir, path string) bool {
	ents, err := os.ReadDir(fdDir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if target, err := os.Readlink(filepath.Join(fdDir, e.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}
