package stream

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"sluice/internal/storage"
)

// ErrForeignFiles is wrapped by RemoveCheckpoint when the checkpoint's
// folder holds something the stream did not write.
var ErrForeignFiles = storage.ErrForeignFiles

// checkpointEntries are the top-level names a checkpoint is made of (see
// Checkpoint): whatever lies below them is the checkpoint's own.
var checkpointEntries = map[string]bool{
	"offsets": true, "commits": true, "state": true, "sources": true,
	"metadata": true, "stop": true, "status": true, "lock": true, ".lock": true,
}

// isCheckpointEntry also accepts the temporary files of an interrupted
// local Put, which are the checkpoint's own too.
func isCheckpointEntry(name string) bool {
	return checkpointEntries[name] || strings.HasPrefix(name, ".sluice-tmp-")
}

// RemoveCheckpoint deletes a stream's checkpoint: its own files and
// folders, and then the folder itself when that leaves it empty. It
// deletes nothing, and returns an error wrapping ErrForeignFiles, when
// the folder holds anything else: a user-given checkpoint_location may be
// a folder with other data in it. A checkpoint that does not exist is
// not an error.
func RemoveCheckpoint(ctx context.Context, cp *Checkpoint) error {
	if ls, ok := cp.Store.(*storage.LocalStore); ok {
		return removeLocalCheckpoint(filepath.Join(ls.Root(), filepath.FromSlash(cp.Prefix)))
	}
	var keys, foreign []string
	err := cp.Store.List(ctx, cp.Prefix, "", func(o storage.ObjectInfo) error {
		top, _, _ := strings.Cut(strings.TrimPrefix(o.Key, cp.Prefix), "/")
		if isCheckpointEntry(top) {
			keys = append(keys, o.Key)
		} else {
			foreign = append(foreign, o.Key)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("removing checkpoint %s%s: %w", cp.Store, cp.Prefix, err)
	}
	if len(foreign) > 0 {
		return fmt.Errorf("removing checkpoint %s%s: it %w (%s); remove them first or delete the folder yourself", cp.Store, cp.Prefix, ErrForeignFiles, storage.SampleNames(foreign))
	}
	for _, k := range keys {
		if err := cp.Store.Delete(ctx, k); err != nil {
			return fmt.Errorf("removing checkpoint %s%s: %w", cp.Store, cp.Prefix, err)
		}
	}
	return nil
}

func removeLocalCheckpoint(dir string) error {
	if err := storage.RemoveOwnedDir(dir, isCheckpointEntry); err != nil {
		return fmt.Errorf("removing checkpoint: %w; remove them first or delete the folder yourself", err)
	}
	return nil
}
