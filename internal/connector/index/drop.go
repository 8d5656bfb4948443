package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sluice/internal/connector"
)

// ErrForeignFiles is wrapped by Drop when the index folder holds files
// that are not the index's.
var ErrForeignFiles = errors.New("holds files that are not part of the index")

// bleveEntries are what a Bleve index folder is made of: its meta file
// and its store (scorch segments, or a bolt file for older indices).
var bleveEntries = map[string]bool{"index_meta.json": true, "store": true}

// Drop deletes a table's index: only Bleve's own files, then the folder
// when that leaves it empty. It deletes nothing, and wraps
// ErrForeignFiles, when the folder holds anything else, and refuses while
// the index is open in this process. A missing index is not an error.
func Drop(ctx context.Context, spec connector.TableSpec) error {
	o, err := ParseOptions(spec)
	if err != nil {
		return fmt.Errorf("dropping index of %s: %w", spec.Name, err)
	}
	abs, err := filepath.Abs(o.Path)
	if err != nil {
		return fmt.Errorf("dropping index of %s: %w", spec.Name, err)
	}
	openMu.Lock()
	defer openMu.Unlock()
	if opened[abs] != nil {
		return fmt.Errorf("dropping index of %s: the index at %s is in use", spec.Name, abs)
	}
	entries, err := os.ReadDir(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dropping index of %s: %w", spec.Name, err)
	}
	var foreign []string
	for _, e := range entries {
		if !bleveEntries[e.Name()] {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		return fmt.Errorf("dropping index of %s: %s %w (%s); nothing was deleted", spec.Name, abs, ErrForeignFiles, strings.Join(foreign, ", "))
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(abs, e.Name())); err != nil {
			return fmt.Errorf("dropping index of %s: %w", spec.Name, err)
		}
	}
	if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("dropping index of %s: %w", spec.Name, err)
	}
	return nil
}
