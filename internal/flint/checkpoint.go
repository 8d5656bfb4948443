package flint

import (
	"context"
	"errors"
	"os"
	"strings"

	"sluice/internal/storage"
)

// checkpointExists reports whether anything is stored at a checkpoint
// location (errors count as "yes": when in doubt, nothing is deleted).
func (f *Flint) checkpointExists(ctx context.Context, loc string) bool {
	if !strings.Contains(loc, "://") {
		if _, err := os.Stat(loc); errors.Is(err, os.ErrNotExist) {
			return false
		}
	}
	store, prefix, err := f.h.ResolveCheckpoint(ctx, loc)
	if err != nil {
		return true
	}
	found := errors.New("found")
	err = store.List(ctx, prefix, "", func(storage.ObjectInfo) error { return found })
	return err != nil
}
