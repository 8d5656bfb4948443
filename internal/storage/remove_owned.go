package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrForeignFiles is wrapped by RemoveOwnedDir when a folder holds
// entries its owner did not write.
var ErrForeignFiles = errors.New("holds files Sluice did not write")

// RemoveOwnedDir deletes a folder that one writer owns (a checkpoint, a
// local index): every top-level entry must be one owned accepts; then
// those entries go, and the folder with them. When any entry is not
// owned, nothing is deleted and the error, wrapping ErrForeignFiles,
// names up to three of them. A missing folder is not an error. Symbolic
// links are removed, never followed.
func RemoveOwnedDir(dir string, owned func(name string) bool) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var foreign []string
	for _, e := range entries {
		if !owned(e.Name()) {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) > 0 {
		return fmt.Errorf("%s %w (%s); nothing was deleted", dir, ErrForeignFiles, SampleNames(foreign))
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// SampleNames names up to three entries, sorted, for an error message.
func SampleNames(names []string) string {
	names = append([]string(nil), names...)
	sort.Strings(names)
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(names, ", ")
}
