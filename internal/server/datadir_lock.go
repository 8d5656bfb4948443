package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"sluice/internal/served"
)

// ErrDataDirInUse means another `sluice serve` holds the data dir.
var ErrDataDirInUse = errors.New("data dir is in use by another sluice serve")

// dataDirLock is an OS file lock on <data dir>/.serve.lock: one server per
// data dir. The kernel releases it when the holder dies, so a restart
// after kill -9 proceeds at once. Beside it, once the server listens, is
// the served record (its URL and PID) that sends a `sluice sql` on the
// same data dir here.
type dataDirLock struct {
	f   *os.File
	dir string
}

func lockDataDir(dir, owner string) (*dataDirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("locking data dir: %w", err)
	}
	path := filepath.Join(dir, served.LockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking data dir: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := io.ReadAll(f)
		f.Close()
		return nil, fmt.Errorf("%w: %s is held by %s", ErrDataDirInUse, dir, bytes.TrimSpace(holder))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(owner+"\n"), 0)
	return &dataDirLock{f: f, dir: dir}, nil
}

// advertise records url as where this server listens.
func (l *dataDirLock) advertise(url string) error {
	return served.Write(l.dir, served.Record{URL: url, PID: os.Getpid()})
}

// unadvertise removes the record: the server no longer listens.
func (l *dataDirLock) unadvertise() { _ = served.Remove(l.dir) }

func (l *dataDirLock) release() error {
	l.unadvertise()
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return l.f.Close()
}

// LockDataDir takes dir's data dir lock for a command other than serve
// (`sluice backup` without a server, `sluice restore`): while it is
// held no server starts on dir. It fails with ErrDataDirInUse when a
// server (or another such command) holds it.
func LockDataDir(dir, owner string) (release func() error, err error) {
	l, err := lockDataDir(dir, owner)
	if err != nil {
		return nil, err
	}
	return l.release, nil
}
