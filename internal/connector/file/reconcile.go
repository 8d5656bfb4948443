package file

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sluice/internal/connector"
	"sluice/internal/formatver"
	"sluice/internal/queue"
	"sluice/internal/storage"
)

// Reconciliation: with discovery 'notifications' a publisher that loses
// events (a gateway restarted with its queue down, a full buffer, a
// misconfigured filter) would leave files unread for ever. Every
// reconcile_interval the location is listed from a high-water mark (S3's
// start_after: only keys after it) and what the seen-file log and the
// pending events do not know is read like an event's file; the seen log
// then makes a late event for it a duplicate. Those files are the
// publisher's losses, counted (reconciled_files) and warned of.
//
// The mark is the greatest key a reconcile listed, and it moves only
// once every file that listing found is committed (the mark file is
// written after their seen-log entries), so a crash never skips one: the
// next run lists from the older mark and the seen log drops what was
// read. Keys sorting before the mark that land late (a writer uploading
// an older name) are not past start_after: every reconcile_full_every-th
// reconcile lists the whole location instead, against the seen set.
//
// A file younger than reconcileGrace is left to its event, which may be
// in flight; the mark stops before it, so the next reconcile looks again
// (with keys that do not sort by arrival the mark then moves little, and
// each reconcile lists most of the location: correct, not cheap).
// Nor does a reconcile run while the queue has messages out with another
// receiver (a killed run's, until their deadline brings them back): it
// would take their files for lost.

// reconcileGrace is how old a file must be before a reconcile takes it
// for lost (capped at half the interval, for short test intervals).
const reconcileGrace = 30 * time.Second

// reconcileMark is the mark as stored (formatver.ReconcileMark).
type reconcileMark struct {
	formatver.Stamp
	// HighWater: every key up to it was listed and is committed or was
	// not new. "" lists from the start.
	HighWater string `json:"high_water_mark,omitempty"`
	// Listings counts reconciles, for the full listing every Nth.
	Listings int64 `json:"listings"`
	// Last is when the last reconcile listed (µs), so a restart does
	// not put the next one off by a whole interval.
	Last int64 `json:"last_us,omitempty"`
	// Since (µs): without backfill, files modified before the stream
	// first started are not the publisher's losses but what backfill
	// = false leaves alone.
	Since int64 `json:"since_us,omitempty"`
	// Open: the last reconcile took files not all committed yet; a
	// restart reconciles at once rather than an interval later.
	Open bool `json:"open,omitempty"`
}

// reconciler is the notifier's reconcile state (under notifier.mu).
type reconciler struct {
	mark reconcileMark
	// found: keys the current reconcile took, not committed yet; next is
	// the mark once they all are.
	found map[string]bool
	next  string
	// Stats for DESCRIBE STREAM and the metrics, since the source started.
	files, listings int64
}

func (s *StreamSource) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *StreamSource) reconcileKey() string { return s.area.Prefix + "notify/reconcile.json" }

// recoverReconcile reads the mark; without one and without backfill it
// records the start, so pre-existing files stay unread. Recover holds
// s.mu and n.mu.
func (s *StreamSource) recoverReconcile(ctx context.Context) error {
	n := s.notify
	n.rc = reconciler{found: map[string]bool{}}
	if s.sopts.ReconcileInterval <= 0 {
		return nil
	}
	err := s.readJSON(ctx, s.reconcileKey(), &n.rc.mark)
	switch {
	case err == nil:
		if n.rc.mark.Open {
			n.rc.mark.Last = 0
		}
		return formatver.ReconcileMark.Check(s.file(s.reconcileKey()), n.rc.mark.Stamp)
	case !errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("reading reconcile mark: %w", err)
	}
	// First start: the backfill (or its absence) covers what is there,
	// so the first reconcile is an interval later (recorded, so that a
	// stream restarted more often than that still reconciles).
	n.rc.mark.Last = s.now().UnixMicro()
	if !s.sopts.Backfill {
		n.rc.mark.Since = n.rc.mark.Last
	}
	return s.writeMarkLocked(ctx, n.rc.mark)
}

func (s *StreamSource) writeMarkLocked(ctx context.Context, m reconcileMark) error {
	m.Stamp = formatver.ReconcileMark.Stamp()
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := s.area.Store.Put(ctx, s.reconcileKey(), bytes.NewReader(data), false); err != nil {
		return fmt.Errorf("recording reconcile mark: %w", err)
	}
	return nil
}

// reconcileDue lists for missed files when an interval has passed since
// the last reconcile and the previous one's files are all committed.
// Not while the first listing (backfill) is still being read, nor for
// one of several workers (each would take the same files).
func (s *StreamSource) reconcileDue(ctx context.Context) error {
	n := s.notify
	every := s.sopts.ReconcileInterval
	if every <= 0 || s.shared {
		return nil
	}
	now := s.now()
	n.mu.Lock()
	busy := len(n.rc.found) > 0 || (!n.backfilled && n.listed)
	if _, ok := n.q.(queue.Backlogger); ok {
		// Messages delivered to another receiver and not acknowledged
		// (a killed run's, until the queue's deadline gives them back):
		// their files would look lost.
		held := 0
		for _, hs := range n.waiting {
			held += len(hs)
		}
		busy = busy || n.stats.Backlog.Unacked > int64(held)
	}
	due := now.Sub(time.UnixMicro(n.rc.mark.Last)) >= every
	mark := n.rc.mark
	n.mu.Unlock()
	if busy || !due {
		return nil
	}
	after := mark.HighWater
	full := s.sopts.ReconcileFullEvery > 0 && (mark.Listings+1)%int64(s.sopts.ReconcileFullEvery) == 0
	if full {
		after = ""
	}
	young := now.Add(-min(reconcileGrace, every/2)).UnixMicro()
	var files []fileEntry
	next, stopped := mark.HighWater, false
	err := s.loc.store.List(ctx, s.loc.listPrefix(), after, func(o storage.ObjectInfo) error {
		f, ok := s.loc.accept(o, &s.sopts)
		if ok && f.MTime > young {
			// Its event may be on its way: look again next time, so the
			// mark stays before it. The listing goes on (keys that do not
			// sort by arrival would otherwise never be reached).
			stopped = true
			return nil
		}
		if !stopped && o.Key > next {
			next = o.Key
		}
		if ok && f.MTime >= mark.Since {
			files = append(files, f)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("table %s: reconcile listing %s: %w", s.spec.Name, s.loc.uri, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n.mu.Lock()
	defer n.mu.Unlock()
	var found int64
	for _, f := range files {
		if old, ok := s.seen[f.Key]; ok && (storage.SameVersion(old.ETag, f.ETag) || old.ETag == "" || f.ETag == "" || !s.sopts.ReprocessChangedFiles) {
			continue
		}
		if f.Key <= s.coveredUpTo {
			continue // read in start_after mode, which keeps no seen set
		}
		if _, ok := n.pending[f.Key]; ok {
			continue
		}
		f.Reconciled = true
		n.pending[f.Key] = f
		n.rc.found[f.Key] = true
		found++
	}
	n.rc.files += found
	n.rc.listings++
	n.rc.mark.Listings++
	n.rc.mark.Last = now.UnixMicro()
	n.rc.next = next
	kind := "listing after the high-water mark"
	if full || after == "" {
		kind = "full listing"
	}
	if found > 0 {
		s.warnf("warning: table %s: reconcile (%s) found %d file(s) the notifications missed (%d listed; %d found since start): the publisher lost their events",
			s.spec.Name, kind, found, len(files), n.rc.files)
	}
	if found == 0 {
		n.rc.mark.HighWater = next
	}
	n.rc.mark.Open = found > 0
	return s.writeMarkLocked(ctx, n.rc.mark)
}

// reconcileCommitted forgets committed (or dropped) keys a reconcile
// found and moves the mark once they are all committed. Called with n.mu.
func (s *StreamSource) reconcileCommittedLocked(ctx context.Context, files []fileEntry) error {
	rc := &s.notify.rc
	if len(rc.found) == 0 {
		return nil
	}
	for _, f := range files {
		delete(rc.found, f.Key)
	}
	if len(rc.found) > 0 {
		return nil
	}
	rc.mark.HighWater, rc.mark.Open = rc.next, false
	return s.writeMarkLocked(ctx, rc.mark)
}

// ReconciledFiles counts the files of an epoch's offset that a reconcile
// found (connector.ReconcileCounter): the runner adds them to the
// stream's totals in the same commit, so a replayed epoch counts once.
func (s *StreamSource) ReconciledFiles(offset connector.Offset) int {
	off, err := decodeOffset(offset)
	if err != nil {
		return 0
	}
	n := 0
	for _, f := range off.Files {
		if f.Reconciled {
			n++
		}
	}
	return n
}
