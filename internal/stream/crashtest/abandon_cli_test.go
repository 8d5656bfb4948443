package crashtest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// abandonFiles makes each epoch long: every trigger takes them all.
const abandonFiles = 5_000

// TestCLIAbandonEpoch: during a long epoch (5,000 files in one trigger)
// the first SIGINT asks for a stop at the boundary; a second SIGINT, or
// --stop-timeout after a SIGTERM, abandons the epoch: the binary exits
// promptly with status 1 and says which epoch will be replayed, the
// checkpoint holds offsets/N without commits/N, and a restart replays it
// so that the sink equals a batch INSERT of the same files.
func TestCLIAbandonEpoch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice and streams 10,000 files")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	in := filepath.Join(dir, "in")
	writeInputs(t, in, abandonFiles, 2)
	data, cp := filepath.Join(dir, "data"), filepath.Join(dir, "cp")
	s := &scenario{dataDir: data}
	s.exec(t,
		"CREATE TABLE src (id BIGINT, status INT, msg STRING) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '"+filepath.Join(dir, "out")+"/'",
		"CREATE TABLE batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '"+filepath.Join(dir, "batch")+"/'")
	stmt := "INSERT STREAM INTO out SELECT id, status, msg FROM src WITH (name = 'feed', trigger = 'available_now', " +
		"max_files_per_trigger = 1000000, checkpoint_location = '" + cp + "')"
	exists := func(p string) bool { _, err := os.Stat(filepath.Join(cp, p)); return err == nil }

	// abandon starts the stream, waits for epoch to be planned, sends
	// first, then (when second is not 0) second, and checks the exit.
	abandon := func(epoch string, first, second syscall.Signal, flags ...string) {
		t.Helper()
		cmd := exec.Command(bin, append(append([]string{"sql", "--data-dir", data}, flags...), "-e", stmt)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		t0 := time.Now()
		for !exists("offsets/" + epoch) {
			select {
			case err := <-exited:
				t.Fatalf("exited before planning epoch %s: %v\n%s", epoch, err, stderr.String())
			case <-time.After(5 * time.Millisecond):
			}
		}
		planned := time.Since(t0)
		_ = cmd.Process.Signal(first)
		select {
		case err := <-exited:
			t.Fatalf("the first signal must let epoch %s finish, but the process exited (%v) before the epoch could: %s", epoch, err, stderr.String())
		case <-time.After(300 * time.Millisecond):
		}
		if exists("commits/" + epoch) {
			t.Skipf("epoch %s of %d files committed within 300ms: too fast to abandon here", epoch, abandonFiles)
		}
		t1 := time.Now()
		if second != 0 {
			_ = cmd.Process.Signal(second)
		}
		var err error
		select {
		case err = <-exited:
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			t.Fatalf("still running a minute after being told to abandon epoch %s", epoch)
		}
		t.Logf("epoch %s planned after %s; exited %s after the abandon request: %v", epoch, planned.Round(time.Millisecond),
			time.Since(t1).Round(time.Millisecond), strings.TrimSpace(stderr.String()))
		if err == nil && exists("commits/"+epoch) {
			// The epoch finished between the check above and the stop
			// timeout: it stopped at its boundary, as it may.
			t.Skipf("epoch %s of %d files committed within the stop timeout: too fast to abandon here", epoch, abandonFiles)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("want exit status 1, got %v", err)
		}
		want := "error: stream feed: abandoned epoch " + epoch + " (it will be replayed on the next start)"
		if !strings.Contains(stderr.String(), want) {
			t.Fatalf("stderr should say %q:\n%s", want, stderr.String())
		}
		if !exists("offsets/"+epoch) || exists("commits/"+epoch) {
			t.Fatalf("an abandoned epoch %s must leave offsets/%s and no commits/%s", epoch, epoch, epoch)
		}
	}
	finish := func(wantEpoch string) {
		t.Helper()
		t0 := time.Now()
		out, err := exec.Command(bin, "sql", "--data-dir", data, "-e", stmt).CombinedOutput()
		t.Logf("restart replayed epoch %s in %s", wantEpoch, time.Since(t0).Round(time.Millisecond))
		if err != nil {
			t.Fatalf("restart: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "[feed] epoch "+wantEpoch+":") || !exists("commits/"+wantEpoch) {
			t.Fatalf("the restart should replay epoch %s:\n%s", wantEpoch, out)
		}
	}

	abandon("0", syscall.SIGINT, syscall.SIGINT)
	finish("0")
	writeInputsFrom(t, in, abandonFiles, abandonFiles, 2)
	abandon("1", syscall.SIGTERM, 0, "--stop-timeout", "500ms")
	finish("1")

	s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src")
	got, want := s.rows(t, "SELECT id, status, msg FROM out"), s.rows(t, "SELECT id, status, msg FROM batch")
	if len(want) != 2*abandonFiles*2 {
		t.Fatalf("batch INSERT wrote %d rows, want %d", len(want), 2*abandonFiles*2)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the stream wrote %d rows, the batch %d: not the same multiset", len(got), len(want))
	}
}
