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
	foregroundOutage(t, newOutage(t, "nats"), true)
}

// TestWorkerKafkaOutage: the same over a real Kafka broker, killed and
// started again (the client retries a dead broker quietly: polls would
// look empty and the stream say running).
func TestWorkerKafkaOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts Kafka and an S3 server")
	}
	foregroundOutage(t, newOutage(t, "kafka"), false)
}

// TestWorkerSQSOutage: the same over ElasticMQ, killed and started again
// over its stored messages.
func TestWorkerSQSOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts ElasticMQ and an S3 server")
	}
	foregroundOutage(t, newOutage(t, "sqs"), false)
}

func foregroundOutage(t *testing.T, o *outage, stopInOutage bool) {
	t0 := time.Now()
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
		select {
		case <-exited:
		default:
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-exited
		}
	}()
	state := func() string { return "stderr:\n" + stderr.String() }
	o.waitRows(t, "before the outage", state)
	t.Logf("%s: caught up before the outage", time.Since(t0).Round(time.Millisecond))

	retries := func() int { return strings.Count(stderr.String(), "warning: stream feed: ") }
	waitRetry := func(what string) {
		t.Helper()
		for n, deadline := retries(), time.Now().Add(20*time.Second); retries() <= n; time.Sleep(50 * time.Millisecond) {
			select {
			case err := <-exited:
				exited <- err
				t.Fatalf("%s: the worker exited (%v); %s", what, err, state())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no retry on stderr; %s", what, state())
			}
		}
	}
	o.down()
	waitRetry("the outage")
	t.Logf("%s: the worker says the queue is down", time.Since(t0).Round(time.Millisecond))
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
	t.Logf("retry line: %s", line)
	if !strings.Contains(line, "queue unreachable") || !strings.Contains(line, "retrying in") {
		t.Errorf("retry line %q: want the stream, the queue as unreachable and the next attempt", line)
	}
	for _, secret := range []string{o.srv.SecretKey, o.secret} {
		if secret != "" && strings.Contains(stderr.String(), secret) {
			t.Errorf("stderr shows a secret: %s", state())
		}
	}
	if retries() < 3 {
		t.Errorf("%d retries in 3 s of outage with a backoff of 200ms to 1s; %s", retries(), state())
	}

	if err := o.up(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: the broker is back", time.Since(t0).Round(time.Millisecond))
	o.upload(t, 3)
	o.waitRows(t, "after the outage", state)
	t.Logf("%s: caught up after the outage", time.Since(t0).Round(time.Millisecond))
	time.Sleep(1200 * time.Millisecond)
	o.compare(t)
	if !stopInOutage {
		return
	}

	// A second outage; STOP STREAM cannot reach the worker through NATS.
	o.down()
	waitRetry("the second outage")
	stop := exec.Command(o.bin, "sql", "--data-dir", data, "-e", strings.Join(append(append([]string{}, o.session...), "STOP STREAM feed"), ";\n")+";")
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("STOP STREAM: %v: %s", err, out)
	}
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Fatalf("the worker exited with %v after STOP STREAM; %s", err, state())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("STOP STREAM did not end the retrying worker; %s", state())
	}
}
