package file

import (
	"fmt"

	"github.com/cespare/xxhash/v2"

	"sluice/internal/connector"
)

var (
	_ connector.Worker     = (*StreamSource)(nil)
	_ connector.EpochNamer = (*StreamSource)(nil)
	_ connector.SplitNamer = (*StreamSource)(nil)
)

// SetWorker makes the source one of workers processes sharing the
// stream's queue (docs/scale-out.md): up to max_files_per_trigger files
// per epoch (1 by default), each written by the sink under an id of its
// own file alone (SplitEpoch), and only slot 0 lists the location on
// first start. It needs discovery 'notifications': the queue is what hands each
// file to one worker.
func (s *StreamSource) SetWorker(slot, workers int) error {
	if workers <= 1 {
		return nil
	}
	if !s.notifications() {
		return fmt.Errorf("table %s: workers = %d needs discovery = 'notifications' (the queue shares the files)", s.spec.Name, workers)
	}
	if s.sopts.MaxFilesPerTrigger <= 0 {
		// Unbounded, one worker would take every message there is.
		s.sopts.MaxFilesPerTrigger = 1
	}
	s.sopts.MaxBytesPerTrigger = 0
	s.sopts.Backfill = s.sopts.Backfill && slot == 0
	s.shared = true
	s.slot = slot
	return nil
}

// WorkerSlot is the slot SetWorker gave (0 when not shared).
func (s *StreamSource) WorkerSlot() int { return s.slot }

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
	return fileEpoch(off.Files[0].Key, off.Files[0].ETag), true
}

// SplitEpoch names a shared stream's split (one whole file) for the
// sink as SinkEpoch names a one-file epoch, so a file's output is the
// same whether its epoch read it alone or with others.
func (s *StreamSource) SplitEpoch(sp connector.Split) (int64, bool) {
	fs, ok := sp.(*Split)
	if !s.shared || !ok || fs.Key == "" {
		return 0, false
	}
	return fileEpoch(fs.Key, fs.ETag), true
}

func fileEpoch(key, etag string) int64 {
	return int64(xxhash.Sum64String(key+"\x00"+etag) >> 2)
}
