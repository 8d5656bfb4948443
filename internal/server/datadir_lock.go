package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// ErrDataDirInUse means another `sluice serve` holds the data dir.
var ErrDataDirInUse = errors.New("data dir is in use by another sluice serve")

// dataDirLock is an OS file lock on <data dir>/.serve.lock: one server per
// data dir. The kernel releases it when the holder dies, so a restart
// after kill -9 proceeds at once.
type dataDirLock struct{ f *os.File }

func lockDataDir(dir, owner string) (*dataDirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("locking data dir: %w", err)
	}
	path := filepath.Join(dir, ".serve.lock")
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
	return &dataDirLock{f: f}, nil
}

func (l *dataDirLock) release() error {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return l.f.Close()
}
