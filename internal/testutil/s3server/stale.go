package s3server

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A gateway's folder has a sibling DIR.owner holding the PID of the test
// binary that made it. A binary killed before its Stop (a timeout, a
// SIGKILL, a child test process) leaves both behind; the next Start
// removes the folders whose owner is gone. The gateway itself dies with
// its parent (Pdeathsig), so nothing but these folders can outlive it.

func writeOwner(dir string) error {
	return os.WriteFile(dir+".owner", []byte(strconv.Itoa(os.Getpid())), 0o600)
}

func removeOwner(dir string) { _ = os.Remove(dir + ".owner") }

// sweepStale removes the folders of gateways whose test binary exited.
func sweepStale() {
	owners, _ := filepath.Glob(filepath.Join(os.TempDir(), "sluice-s3-*.owner"))
	for _, o := range owners {
		b, err := os.ReadFile(o)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		if os.RemoveAll(strings.TrimSuffix(o, ".owner")) == nil {
			_ = os.Remove(o)
		}
	}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
