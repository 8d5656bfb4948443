package file

import (
	"fmt"

	"github.com/cespare/xxhash/v2"

	"sluice/internal/connector"
)

var (
	_ connector.Worker     = (*StreamSource)(nil)
	_ connector.EpochNamer = (*StreamSource)(nil)
)

// SetWorker makes the source one of workers processes sharing the
// stream's queue (docs/scale-out.md): one file per epoch, named for the
// sink by the file alone, and only slot 0 lists the location on first
// start. It needs discovery 'notifications': the queue is what hands each
// file to one worker.
func (s *StreamSource) SetWorker(slot, workers int) error {
	if workers <= 1 {
		return nil
	}
	if !s.notifications() {
		return fmt.Errorf("table %s: workers = %d needs discovery = 'notifications' (the queue shares the files)", s.spec.Name, workers)
	}
	s.sopts.MaxFilesPerTrigger = 1
	s.sopts.MaxBytesPerTrigger = 0
	s.sopts.Backfill = s.sopts.Backfill && slot == 0
	s.shared = true
	return nil
}

// SinkEpoch names a shared stream's epoch by its one file (key and
// ETag), so whichever worker reads it writes the same output.
func (s *StreamSource) SinkEpoch(offset connector.Offset) (int64, bool) {
	if !s.shared {
		return 0, false
	}
	off, err := decodeOffset(offset)
	if err != nil || len(off.Files) != 1 {
		return 0, false
	}
	f := off.Files[0]
	return int64(xxhash.Sum64String(f.Key+"\x00"+f.ETag) >> 2), true
}
