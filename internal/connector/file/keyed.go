package file

import (
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"sluice/internal/connector"
	"sluice/internal/queue"
)

var (
	_ connector.QueueSource    = (*StreamSource)(nil)
	_ connector.BackfillMarker = (*StreamSource)(nil)
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
		out = append(out, heldSeqs(n.waiting[key])...)
	}
	return out
}

// heldSeqs is the queue sequences of held messages (a JetStream
// message's id is "seq <stream sequence>"; a Kafka message's partition
// and offset are packed by queue.KafkaSeq).
func heldSeqs(hs []*heldMsg) []uint64 {
	var out []uint64
	for _, h := range hs {
		if seq, ok := queue.KafkaMessageSeq(h.m); ok {
			out = append(out, seq)
			continue
		}
		if v, ok := strings.CutPrefix(h.m.ID(), "seq "); ok {
			if seq, err := strconv.ParseUint(v, 10, 64); err == nil {
				out = append(out, seq)
			}
		}
	}
	return out
}

// notePlanned remembers the files of the epoch being planned (or
// replayed) with the queue sequences its offsets recorded.
func (s *StreamSource) notePlanned(files []fileEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.planned = make(map[int64]fileEntry, len(files))
	for _, f := range files {
		s.planned[fileEpoch(f.Key, f.ETag)] = f
	}
}

// EventSeqsFor is every queue sequence known to have named the file of
// sink epoch id epoch, in the epoch being run: those its offsets
// recorded when it was planned (so a replay by another process knows
// them too) and those held now; listed when the first listing named it.
// A keyed stream's reader tags the file's partials with them, which
// lets owners forget a file once its messages are all acknowledged
// (docs/scale-out.md, part 2, "Bounded file-id sets").
func (s *StreamSource) EventSeqsFor(epoch int64) (seqs []uint64, listed bool) {
	s.mu.Lock()
	f, ok := s.planned[epoch]
	s.mu.Unlock()
	if ok {
		seqs, listed = append(seqs, f.Seqs...), f.Listed
	}
	for _, q := range s.HeldSeqsFor(epoch) {
		if q == 0 {
			listed = true
		} else {
			seqs = append(seqs, q)
		}
	}
	return seqs, listed
}

// BackfillMarker is the key, in the checkpoint area of the slot that
// lists the location on first start (slot 0), that says every file of
// that listing is committed; "" when the stream does not list (backfill
// off, or no notifications). Call it before SetWorker.
func (s *StreamSource) BackfillMarker(slot0 connector.CheckpointArea) string {
	if !s.notifications() || !s.sopts.Backfill {
		return ""
	}
	return slot0.Prefix + "notify/backfilled"
}

// QueueURL is the notification queue the source reads ("" without one).
func (s *StreamSource) QueueURL() string {
	if !s.notifications() {
		return ""
	}
	return s.sopts.Queue
}
