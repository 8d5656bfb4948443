package file

import (
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// HeldSeqsFor is the queue sequences (JetStream stream sequences) of the
// messages held back by the pending file whose SinkEpoch id is epoch: a
// keyed stream's reader records the file's event-time progress under
// them (docs/scale-out.md, part 2); 0 for a file of the backfill. Empty
// when the file holds none (a replayed epoch).
func (s *StreamSource) HeldSeqsFor(epoch int64) []uint64 {
	n := s.notify
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []uint64
	for key, f := range n.pending {
		if int64(xxhash.Sum64String(key+"\x00"+f.ETag)>>2) != epoch {
			continue
		}
		if n.backfill[key] {
			// Read from the first listing, ahead of the queue: counted
			// at once (sequence 0).
			out = append(out, 0)
		}
		for _, h := range n.waiting[key] {
			if v, ok := strings.CutPrefix(h.m.ID(), "seq "); ok {
				if seq, err := strconv.ParseUint(v, 10, 64); err == nil {
					out = append(out, seq)
				}
			}
		}
	}
	return out
}

// QueueURL is the notification queue the source reads ("" without one).
func (s *StreamSource) QueueURL() string {
	if !s.notifications() {
		return ""
	}
	return s.sopts.Queue
}
