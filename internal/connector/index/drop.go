package index

import (
	"context"
	"fmt"
	"path/filepath"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

// ErrForeignFiles is wrapped by Drop when the index folder holds files
// that are not the index's.
var ErrForeignFiles = storage.ErrForeignFiles

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
	if err := storage.RemoveOwnedDir(abs, func(name string) bool { return bleveEntries[name] }); err != nil {
		return fmt.Errorf("dropping index of %s: %w", spec.Name, err)
	}
	return nil
}

// SamePath reports whether two tables keep the same local index (the
// registry's SameData for index).
func SamePath(a, b connector.TableSpec) bool {
	p, q := a.Options["path"], b.Options["path"]
	if p == "" || q == "" {
		return false
	}
	ap, err1 := filepath.Abs(p)
	aq, err2 := filepath.Abs(q)
	return err1 == nil && err2 == nil && ap == aq
}
