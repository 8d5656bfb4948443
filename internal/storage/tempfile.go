package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// TempFile is a scratch file that a later process can tell from a live
// one: its creator holds an OS lock on it until Remove, and the kernel
// drops that lock when the creator dies, even by SIGKILL. SweepTemp then
// removes the files nobody holds.
type TempFile struct {
	*os.File
}

// CreateTemp makes a locked scratch file in dir (created if needed; the
// system temp dir when dir is ""), named pattern as in os.CreateTemp.
func CreateTemp(dir, pattern string) (*TempFile, error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("creating scratch file: %w", err)
		}
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("creating scratch file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("locking scratch file %s: %w", f.Name(), err)
	}
	return &TempFile{File: f}, nil
}

// Remove closes and deletes the file.
func (t *TempFile) Remove() error {
	cerr := t.Close()
	if err := os.Remove(t.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if errors.Is(cerr, os.ErrClosed) {
		return nil
	}
	return cerr
}

// SweepTemp removes the scratch files in dir whose names start with
// prefix and whose creator is gone (nobody holds their lock), and reports
// how many it removed. A missing dir is not an error.
func SweepTemp(dir, prefix string) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sweeping scratch files in %s: %w", dir, err)
	}
	n := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue // gone already, or not ours to open
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			// Nobody holds it: its writer died before removing it.
			if os.Remove(p) == nil {
				n++
			}
		}
		f.Close()
	}
	return n, nil
}
