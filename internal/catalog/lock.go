package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockFile serializes read-modify-write of catalog.json across processes
// sharing a data directory, so two invocations creating tables at once
// both keep their table. It blocks until the lock is free.
func (c *Catalog) lockFile() (func(), error) {
	if c.path == "" {
		return func() {}, nil
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(c.path), ".catalog.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking catalog: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking catalog: %w", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
