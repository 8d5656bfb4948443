package file

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

// Drop deletes a managed file table's folder (one Sluice chose, under the
// data dir): only what the file sink writes there, part-* files and the
// key=value folders of partitioned writes holding them. It deletes
// nothing, and wraps storage.ErrForeignFiles, when the folder holds
// anything else. A missing folder is not an error.
func Drop(_ context.Context, spec connector.TableSpec) error {
	dir := strings.TrimSuffix(spec.Location, "/")
	if dir == "" || strings.Contains(dir, "://") {
		return fmt.Errorf("dropping %s: only a local folder Sluice made is removed, not %s", spec.Name, spec.Location)
	}
	var foreign []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		name := d.Name()
		switch {
		case d.IsDir() && strings.Contains(name, "="):
		case d.Type().IsRegular() && strings.HasPrefix(name, "part-"):
		default:
			rel, _ := filepath.Rel(dir, p)
			foreign = append(foreign, rel)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dropping %s: %w", spec.Name, err)
	}
	if len(foreign) > 0 {
		return fmt.Errorf("dropping %s: %s %w (%s); nothing was deleted", spec.Name, dir, storage.ErrForeignFiles, storage.SampleNames(foreign))
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("dropping %s: %w", spec.Name, err)
	}
	return nil
}
