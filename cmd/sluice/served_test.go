package main

// Tests of `sluice sql` beside a `sluice serve` on the same data dir: it
// sends its statements to the server (saying so) instead of waiting on
// the server's locks, --local refuses naming the server, and a wait on
// a lock says what it waits for and ends on SIGTERM.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// sqlOn runs `sluice sql --data-dir data args...` with a deadline and
// returns stdout, stderr, how long it took and its error.
func sqlOn(t *testing.T, data string, limit time.Duration, args ...string) (string, string, time.Duration, error) {
	t.Helper()
	return langOn(t, "sql", data, limit, args...)
}

// langOn is sqlOn for `sluice sql` or `sluice ppl`.
func langOn(t *testing.T, lang, data string, limit time.Duration, args ...string) (string, string, time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, sluiceBin, append([]string{lang, "--data-dir", data}, args...)...)
	cmd.Env = append(os.Environ(), "SLUICE_SERVER=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("sluice sql %v did not finish within %s: stdout %q stderr %q", args, limit, out.String(), errb.String())
	}
	return out.String(), errb.String(), time.Since(t0), err
}

// TestSQLOnServedDataDir: the README's flow (tables made, then serve
// over the same data dir, then `sluice sql -e`) with a stream writing a
// local index in the server, whose lock a local engine would wait on.
func TestSQLOnServedDataDir(t *testing.T) {
	root := t.TempDir()
	in, data := filepath.Join(root, "in"), filepath.Join(root, "data")
	writeInputs(t, in, 0, 3, 10)
	p := startServe(t, data)
	mustRemote(t, p.url, "CREATE TABLE src (id BIGINT, host STRING, bytes BIGINT) USING json LOCATION '"+in+"/'")
	mustRemote(t, p.url, "CREATE TABLE hot (id BIGINT, host STRING) USING index OPTIONS (id 'id')")
	mustRemote(t, p.url, "INSERT STREAM INTO hot SELECT id, host FROM src WITH (name = 'feed', trigger = '20 milliseconds')")
	waitCount(t, p.url, "hot", 30)
	routed := fmt.Sprintf("sluice: %s is served by %s (pid %d); sending statements there\n", data, p.url, p.cmd.Process.Pid)

	out, stderr, took, err := sqlOn(t, data, 20*time.Second, "--format", "csv", "-e", "SHOW TABLES; SELECT count(*) FROM hot")
	if err != nil {
		t.Fatalf("sluice sql on the served data dir: %v: %s", err, stderr)
	}
	if !strings.Contains(out, "hot,index") || !strings.Contains(out, "src,json") || csvCount(t, out) != 30 {
		t.Fatalf("stdout %q", out)
	}
	if stderr != routed {
		t.Fatalf("stderr %q, want %q", stderr, routed)
	}
	t.Logf("answered via the server in %s", took.Round(time.Millisecond))

	out, stderr, _, err = langOn(t, "ppl", data, 20*time.Second, "--format", "csv", "-e", "source=hot | stats count() as n")
	if err != nil || csvCount(t, out) != 30 || stderr != routed {
		t.Fatalf("sluice ppl on the served data dir: %q %q (%v)", out, stderr, err)
	}

	// The stream runs in the server, and says so here.
	out, _, _, err = sqlOn(t, data, 20*time.Second, "--format", "csv", "-e", "SHOW STREAMS")
	if err != nil || !strings.Contains(out, "feed,running") {
		t.Fatalf("SHOW STREAMS on the served data dir: %q (%v)", out, err)
	}

	// --local refuses at once, naming the server.
	_, stderr, took, err = sqlOn(t, data, 20*time.Second, "--local", "-e", "SHOW TABLES")
	if err == nil {
		t.Fatal("--local ran beside the server")
	}
	if !strings.Contains(stderr, p.url) || !strings.Contains(stderr, fmt.Sprintf("pid %d", p.cmd.Process.Pid)) {
		t.Fatalf("--local said %q", stderr)
	}
	if took > time.Second {
		t.Fatalf("--local took %s to refuse", took)
	}

	// Once the server is gone (SIGTERM), its record goes with it and a
	// local SHOW STREAMS shows the last recorded state.
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-p.done; err != nil {
		t.Fatalf("sluice serve after SIGTERM: %v", err)
	}
	out, stderr, _, err = sqlOn(t, data, 20*time.Second, "--format", "csv", "-e", "SHOW STREAMS")
	if err != nil || strings.Contains(stderr, "served by") || !strings.Contains(out, "feed,") {
		t.Fatalf("SHOW STREAMS after the server stopped: %q %q (%v)", out, stderr, err)
	}
}

// TestLockWaitSaysSoAndEndsOnSIGTERM: a `sluice sql` behind a catalog
// lock another process holds says what it waits for and exits within a
// second of SIGTERM (it used to sit in flock, deaf to it).
func TestLockWaitSaysSoAndEndsOnSIGTERM(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	held, err := os.OpenFile(filepath.Join(data, ".catalog.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sluiceBin, "sql", "--data-dir", data, "-e", "CREATE TABLE t (a BIGINT) USING json LOCATION '"+filepath.Join(root, "t")+"/'")
	cmd.Env = append(os.Environ(), "SLUICE_SERVER=")
	var mu sync.Mutex
	var stderr bytes.Buffer
	cmd.Stderr = writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(b) })
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	said := func() string { mu.Lock(); defer mu.Unlock(); return stderr.String() }
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(said(), "waiting for the catalog lock of "+data) {
		select {
		case err := <-done:
			t.Fatalf("sluice sql ended (%v) behind a held lock: %q", err, said())
		default:
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no word of the wait within 20s: %q", said())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t0 := time.Now()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("exit 0 after SIGTERM in a lock wait")
		}
		if d := time.Since(t0); d > time.Second {
			t.Fatalf("took %s to end after SIGTERM", d)
		}
		t.Logf("ended %s after SIGTERM: %q", time.Since(t0).Round(time.Millisecond), said())
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still waiting 5s after SIGTERM: %q", said())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestSQLOnServedDataDirWithAuth: a server over HTTPS with users is
// found at its https URL, and the credential flags of --server apply.
func TestSQLOnServedDataDirWithAuth(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	tok, errs, err := sluiceCmd("", nil, "token", "create", "--data-dir", data, "--role", "read", "dash")
	if err != nil {
		t.Fatal(errs)
	}
	cert, key := testCert(t, root)
	p := startServe(t, data, "--tls-cert", cert, "--tls-key", key)
	if !strings.HasPrefix(p.url, "https://") {
		t.Fatalf("listening on %s", p.url)
	}
	_, stderr, _, err := sqlOn(t, data, 20*time.Second, "--ca-cert", cert, "-e", "SHOW TABLES")
	if err == nil || !strings.Contains(stderr, "is served by "+p.url) || !strings.Contains(stderr, "authentication failed") {
		t.Fatalf("no credentials: %v %q", err, stderr)
	}
	out, stderr, _, err := sqlOn(t, data, 20*time.Second, "--ca-cert", cert, "--token", strings.TrimSpace(tok), "--format", "csv", "-e", "SELECT 1 AS one")
	if err != nil || strings.TrimSpace(out) != "one\n1" {
		t.Fatalf("with the token: %q %v %q", out, err, stderr)
	}
}
