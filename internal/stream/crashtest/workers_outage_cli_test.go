package crashtest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWorkerQueueOutageForeground: a foreground worker (`sluice sql -e
// "INSERT STREAM ..."`) whose NATS server goes down says so on stderr
// (the stream's name and the queue as unreachable, no secret), commits
// nothing and keeps running, retrying with backoff; once the server is
// back it reads what landed, the sink equal to a batch INSERT. In a
// second outage a STOP STREAM from another process, which reaches it
// through the checkpoint's stop marker only, ends it (exit 0).
func TestWorkerQueueOutageForeground(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	o := newOutage(t, "outage")
	o.upload(t, 3)
	data := filepath.Join(o.dir, "data")
	script := strings.Join(append(append(append([]string{}, o.session...), o.tables...), o.stmt()), ";\n") + ";"
	stderr := &syncBuffer{}
	cmd := exec.Command(o.bin, "sql", "--data-dir", data, "--stream-retry-initial", "200ms", "--stream-retry-max", "1s", "-e", script)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-exited
		}
	}()
	state := func() string { return "stderr:\n" + stderr.String() }
	o.waitRows(t, "before the outage", state)

	retries := func() int { return strings.Count(stderr.String(), "warning: stream feed: ") }
	waitRetry := func(what string) {
		t.Helper()
		for n, deadline := retries(), time.Now().Add(20*time.Second); retries() <= n; time.Sleep(50 * time.Millisecond) {
			select {
			case err := <-exited:
				t.Fatalf("%s: the worker exited (%v); %s", what, err, state())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no retry on stderr; %s", what, state())
			}
		}
	}
	o.ns.Down()
	waitRetry("the outage")
	before := o.commits()
	time.Sleep(3 * time.Second) // several retries
	if got := o.commits(); got != before {
		t.Errorf("%d epochs committed while the queue was down", got-before)
	}
	var line string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "warning: stream feed: ") {
			line = l
		}
	}
	if !strings.Contains(line, "queue unreachable") || !strings.Contains(line, "retrying in") {
		t.Errorf("retry line %q: want the stream, the queue as unreachable and the next attempt", line)
	}
	if strings.Contains(stderr.String(), o.srv.SecretKey) {
		t.Errorf("stderr shows the S3 secret key")
	}
	if retries() < 3 {
		t.Errorf("%d retries in 3 s of outage with a backoff of 200ms to 1s; %s", retries(), state())
	}

	if err := o.ns.Up(); err != nil {
		t.Fatal(err)
	}
	o.upload(t, 3)
	o.waitRows(t, "after the outage", state)
	time.Sleep(1200 * time.Millisecond)
	o.compare(t)

	// A second outage; STOP STREAM cannot reach the worker through NATS.
	o.ns.Down()
	waitRetry("the second outage")
	stop := exec.Command(o.bin, "sql", "--data-dir", data, "-e", strings.Join(append(append([]string{}, o.session...), "STOP STREAM feed"), ";\n")+";")
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("STOP STREAM: %v: %s", err, out)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the worker exited with %v after STOP STREAM; %s", err, state())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("STOP STREAM did not end the retrying worker; %s", state())
	}
}
