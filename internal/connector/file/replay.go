package file

import (
	"context"
	"errors"
	"fmt"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

var _ connector.ReplayPreparer = (*StreamSource)(nil)

// PrepareReplay notes the files of a replayed epoch that changed since it
// was planned: the replay reads them as they are now, so Commit records
// their current ETags, and a later epoch does not read the same version
// again (with reprocess_changed_files) or warn that it changed. One Stat
// per file, on replays only.
func (s *StreamSource) PrepareReplay(ctx context.Context, offset connector.Offset) error {
	off, err := decodeOffset(offset)
	if err != nil {
		return fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	now := map[string]string{}
	for _, f := range off.Files {
		oi, err := s.loc.store.Stat(ctx, f.Key)
		if errors.Is(err, storage.ErrNotFound) {
			continue // the read reports it
		}
		if err != nil {
			return fmt.Errorf("table %s: %w", s.spec.Name, err)
		}
		if oi.ETag != "" && !storage.SameVersion(f.ETag, oi.ETag) {
			now[f.Key] = oi.ETag
		}
	}
	s.mu.Lock()
	s.replayed = now
	s.mu.Unlock()
	return nil
}
