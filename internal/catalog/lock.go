package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"sluice/internal/lockwait"
)

// lockFile serializes read-modify-write of catalog.json across processes
// sharing a data directory, so two invocations creating tables at once
// both keep their table. It waits until the lock is free, saying so past
// a second and ending on SIGINT/SIGTERM (lockwait).
func (c *Catalog) lockFile() (func(), error) {
	if c.path == "" {
		return func() {}, nil
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(c.path), ".catalog.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking catalog: %w", err)
	}
	what := "the catalog lock of " + filepath.Dir(c.path)
	err = lockwait.Wait(context.Background(), what, nil, func() (bool, error) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("locking catalog: %w", err)
		}
		return true, nil
	})
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
