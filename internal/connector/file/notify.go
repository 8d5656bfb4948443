package file

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"sluice/internal/connector"
	"sluice/internal/queue"
	"sluice/internal/storage"
)

// notifier is the part of a StreamSource with discovery 'notifications':
// new files come from S3 event messages on a queue instead of listings.
//
// A message is acknowledged only once every file it named is recorded as
// seen by a committed epoch (or needs no reading: a duplicate, a file
// filtered out or gone, a key that can name no file, another bucket, a
// test event, a malformed message once dead-lettered: event_filter.go,
// bad_message.go). So a crash before the commit redelivers it, and the
// seen-file log makes the redelivery harmless; no message's content can
// fail an epoch, only a broker that cannot be reached or a failing store
// or dead-letter location. Nothing assumes the events arrive in order, or
// once.
type notifier struct {
	q queue.Queue
	// mu guards everything below; StreamSource.mu is taken first when both are.
	mu sync.Mutex
	// pending: files named by events (or the backfill), not yet committed.
	pending map[string]fileEntry
	// arrived: messages WaitArrival received, not yet taken (arrival.go).
	arrived []queue.Message
	// waiting: per pending key, the messages it holds back.
	waiting map[string][]*heldMsg
	// backfill: keys of the first listing not committed yet; backfilled
	// once they all are (recorded in the checkpoint).
	backfill   map[string]bool
	backfilled bool
	listed     bool
	lastExtend time.Time
	stats      NotifyStats
	rc         reconciler // reconcile.go
}

// heldMsg is a message and how many of its files are still uncommitted.
type heldMsg struct {
	m    queue.Message
	left int
}

// NotifyStats counts what the queue delivered, for DESCRIBE STREAM.
type NotifyStats struct {
	Messages  int64 // received
	Files     int64 // files they named that became new input
	Duplicate int64 // files already seen or already waiting
	Filtered  int64 // files outside the table's location or filters
	NotFiles  int64 // keys that can name no file: folder markers "sub/", "a//b.json", NUL (keyNamesFile)
	Gone      int64 // files no longer there when the event was read
	Foreign   int64 // records for other buckets, test events, other event types
	Malformed int64 // messages that were no S3 event (dead-lettered or warned of: bad_message.go)
	Held      int   // messages waiting for their epoch to commit
	// Reconciled: files reconcile listings found that no event named
	// (reconcile.go), in Reconciles listings.
	Reconciled, Reconciles int64
	Backlog                queue.Backlog
}

// receiveBatch is how many messages one fetch asks for; maxPerLatest
// bounds one Latest, so a huge backlog still starts epochs.
const (
	receiveBatch = 500
	maxPerLatest = 20_000
)

func (s *StreamSource) notifications() bool { return s.sopts.Discovery == "notifications" }

// backfillKey marks, in the checkpoint, that the first listing was read.
func (s *StreamSource) backfillKey() string { return s.area.Prefix + "notify/backfilled" }

// recoverNotify opens the queue (once per source) and reads whether the
// backfill is done. Recover holds s.mu.
func (s *StreamSource) recoverNotify(ctx context.Context) error {
	if s.notify == nil {
		open := s.OpenQueue
		if open == nil {
			open = queue.Open
		}
		q, err := open(ctx, s.sopts.Queue)
		if err != nil {
			return fmt.Errorf("table %s: queue: %w", s.spec.Name, err)
		}
		s.notify = &notifier{q: q}
	}
	n := s.notify
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pending, n.waiting, n.backfill, n.listed = map[string]fileEntry{}, map[string][]*heldMsg{}, nil, false
	n.backfilled = !s.sopts.Backfill
	if !n.backfilled {
		_, err := s.area.Store.Stat(ctx, s.backfillKey())
		switch {
		case err == nil:
			n.backfilled = true
		case !errors.Is(err, storage.ErrNotFound):
			return fmt.Errorf("reading backfill marker: %w", err)
		}
	}
	return s.recoverReconcile(ctx)
}

// Close closes the queue; unacknowledged messages come back to the next
// receiver after the queue's deadline.
func (s *StreamSource) Close() error {
	if n := s.notify; n != nil {
		n.mu.Lock()
		arrived := n.arrived
		n.arrived = nil
		n.mu.Unlock()
		if len(arrived) > 0 {
			// Never taken: back to the queue now, not after its deadline.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = n.q.Nak(ctx, arrived)
			cancel()
		}
		return n.q.Close()
	}
	return nil
}

// NotifyStats reports the queue's counters and its backlog as of the
// last Latest; ok is false without discovery 'notifications'.
func (s *StreamSource) NotifyStats() (NotifyStats, bool) {
	s.mu.Lock() // Recover sets notify under it
	n := s.notify
	s.mu.Unlock()
	if n == nil {
		return NotifyStats{}, false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	st := n.stats
	st.Reconciled, st.Reconciles = n.rc.files, n.rc.listings
	st.Held = 0
	for _, hs := range n.waiting {
		st.Held += len(hs)
	}
	return st, true
}

// discoverNotified receives what the queue has and returns every pending
// file. With available_now it keeps receiving until the queue has no
// message left that anyone could still be given (a killed receiver's
// come back after the ack deadline).
func (s *StreamSource) discoverNotified(ctx context.Context) ([]fileEntry, error) {
	n := s.notify
	if c, ok := n.q.(queue.Checker); ok {
		// Files held for an epoch could be neither extended nor
		// acknowledged: fail the epoch before it reads them (they come
		// back after the ack deadline, here or to another worker).
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
		}
	}
	if err := s.backfillOnce(ctx); err != nil {
		return nil, err
	}
	got, err := s.takeArrived(ctx)
	if err != nil {
		return nil, err
	}
	batch := receiveBatch
	for got < maxPerLatest {
		if s.shared {
			n.mu.Lock()
			batch = s.receiveMaxLocked()
			n.mu.Unlock()
			if batch <= 0 {
				break
			}
		}
		msgs, err := n.q.Receive(ctx, batch, 0)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
		}
		if len(msgs) == 0 {
			n.mu.Lock()
			empty := len(n.pending) == 0
			n.mu.Unlock()
			if !s.availableNow || !empty {
				break
			}
			drained, err := s.drained(ctx)
			if err != nil {
				return nil, err
			}
			if drained {
				break
			}
			if msgs, err = n.q.Receive(ctx, batch, 500*time.Millisecond); err != nil {
				return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
			}
			if len(msgs) == 0 {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				continue
			}
		}
		got += len(msgs)
		if err := s.take(ctx, msgs); err != nil {
			return nil, err
		}
	}
	if err := s.extendHeld(ctx); err != nil {
		s.warnf("warning: table %s: %v", s.spec.Name, err)
	}
	if bl, ok := n.q.(queue.Backlogger); ok {
		if b, err := bl.Backlog(ctx); err == nil {
			n.mu.Lock()
			n.stats.Backlog = b
			n.mu.Unlock()
		}
	}
	// After the receives and the backlog, so files whose events came,
	// or are still out with a dead receiver, are not taken for lost.
	if err := s.reconcileDue(ctx); err != nil {
		return nil, err
	}
	if c, ok := n.q.(queue.Checker); ok {
		// The broker went away while this Latest talked to it (a worker
		// holding its files makes no receive, but extends them and
		// reads the backlog): fail before anything is read, as above.
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]fileEntry, 0, len(n.pending))
	for key, f := range n.pending {
		if s.shared {
			f.Seqs, f.Listed = heldSeqs(n.waiting[key]), n.backfill[key]
		}
		out = append(out, f)
	}
	return out, nil
}

// receiveMaxLocked is how many messages a receive may ask for (n.mu
// held): one of several workers takes only what its next epoch reads
// (max_files_per_trigger, less the files it holds), so the others get
// the rest.
func (s *StreamSource) receiveMaxLocked() int {
	n := s.notify
	if !s.shared {
		return receiveBatch
	}
	return s.sopts.MaxFilesPerTrigger - len(n.pending) - len(n.arrived)
}

// drained: the queue holds nothing beyond the messages this source holds.
func (s *StreamSource) drained(ctx context.Context) (bool, error) {
	n := s.notify
	bl, ok := n.q.(queue.Backlogger)
	if !ok {
		return true, nil
	}
	b, err := bl.Backlog(ctx)
	if err != nil {
		return false, fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	n.mu.Lock()
	held := 0
	for _, hs := range n.waiting {
		held += len(hs)
	}
	n.mu.Unlock()
	return b.Pending == 0 && b.Unacked <= int64(held), nil
}

// backfillOnce lists the location the first time a stream starts, so
// files that landed before the queue existed are read too.
func (s *StreamSource) backfillOnce(ctx context.Context) error {
	n := s.notify
	n.mu.Lock()
	need := !n.backfilled && !n.listed
	n.mu.Unlock()
	if !need {
		return nil
	}
	files, err := s.listFiles(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.listed = true
	n.backfill = map[string]bool{}
	for _, f := range files {
		if old, ok := s.seen[f.Key]; ok && (storage.SameVersion(old.ETag, f.ETag) || !s.sopts.ReprocessChangedFiles) {
			continue
		}
		n.pending[f.Key] = f
		n.backfill[f.Key] = true
	}
	if len(n.backfill) == 0 {
		return s.markBackfilledLocked(ctx)
	}
	return nil
}

func (s *StreamSource) markBackfilledLocked(ctx context.Context) error {
	if err := s.area.Store.Put(ctx, s.backfillKey(), strings.NewReader("{}\n"), false); err != nil {
		return fmt.Errorf("recording backfill: %w", err)
	}
	s.notify.backfilled = true
	return nil
}

// take turns messages into pending files; messages that need no epoch
// are acknowledged at once, also those before one that fails (a store or
// dead-letter location that cannot be reached), so a retried epoch does
// not count them again.
func (s *StreamSource) take(ctx context.Context, msgs []queue.Message) error {
	n := s.notify
	bucket := ""
	if b, ok := s.loc.store.(interface{ Bucket() string }); ok {
		bucket = b.Bucket()
	}
	var ackNow []queue.Message
	defer func() {
		if len(ackNow) > 0 {
			if err := n.q.Ack(ctx, ackNow); err != nil {
				// Redelivered later, and harmless again.
				s.warnf("warning: table %s: %v", s.spec.Name, err)
			}
		}
	}()
	for _, m := range msgs {
		n.mu.Lock()
		n.stats.Messages++
		n.mu.Unlock()
		events, other, test, err := parseS3Event(m.Data())
		if err != nil {
			if derr := s.badMessage(ctx, m, err); derr != nil {
				return derr
			}
			n.mu.Lock()
			n.stats.Malformed++
			n.mu.Unlock()
			ackNow = append(ackNow, m)
			continue
		}
		var keys []fileEntry
		foreign := int64(other)
		if test {
			foreign++
		}
		var filtered, notFiles, gone int64
		for _, ev := range events {
			if bucket != "" && ev.Bucket != bucket {
				foreign++
				continue
			}
			f, verdict, err := s.statEvent(ctx, ev)
			if err != nil {
				return err
			}
			switch verdict {
			case eventFiltered:
				filtered++
			case eventNotFile:
				notFiles++
			case eventGone:
				gone++
			default:
				keys = append(keys, f)
			}
		}
		s.mu.Lock()
		n.mu.Lock()
		n.stats.Foreign += foreign
		n.stats.Filtered += filtered
		n.stats.NotFiles += notFiles
		n.stats.Gone += gone
		h := &heldMsg{m: m}
		for _, f := range keys {
			if old, ok := s.seen[f.Key]; ok && (storage.SameVersion(old.ETag, f.ETag) || old.ETag == "" || f.ETag == "" || !s.sopts.ReprocessChangedFiles) {
				n.stats.Duplicate++
				continue
			}
			if _, ok := n.pending[f.Key]; ok {
				n.stats.Duplicate++
			} else {
				n.stats.Files++
				n.pending[f.Key] = f
			}
			n.waiting[f.Key] = append(n.waiting[f.Key], h)
			h.left++
		}
		n.mu.Unlock()
		s.mu.Unlock()
		if h.left == 0 {
			ackNow = append(ackNow, m)
		}
	}
	return nil
}

// extendHeld pushes back the deadline of messages waiting for an epoch,
// so a long backlog behind max_files_per_trigger is not redelivered.
func (s *StreamSource) extendHeld(ctx context.Context) error {
	n := s.notify
	ex, ok := n.q.(queue.Extender)
	if !ok {
		return nil
	}
	every := 5 * time.Second
	if d := ex.Deadline(); d > 0 {
		every = min(every, d/3)
	}
	n.mu.Lock()
	if time.Since(n.lastExtend) < every {
		n.mu.Unlock()
		return nil
	}
	n.lastExtend = time.Now()
	seen := map[*heldMsg]bool{}
	var msgs []queue.Message
	for _, hs := range n.waiting {
		for _, h := range hs {
			if !seen[h] {
				seen[h] = true
				msgs = append(msgs, h.m)
			}
		}
	}
	n.mu.Unlock()
	return ex.Extend(ctx, msgs)
}

// commitNotified acknowledges the messages whose files are all committed
// now, and records the backfill once its files all are.
func (s *StreamSource) commitNotified(ctx context.Context, files []fileEntry) error {
	n := s.notify
	n.mu.Lock()
	var ack []queue.Message
	for _, f := range files {
		delete(n.pending, f.Key)
		for _, h := range n.waiting[f.Key] {
			h.left--
			if h.left == 0 {
				ack = append(ack, h.m)
			}
		}
		delete(n.waiting, f.Key)
		delete(n.backfill, f.Key)
	}
	var err error
	if !n.backfilled && n.listed && len(n.backfill) == 0 {
		err = s.markBackfilledLocked(ctx)
	}
	if rerr := s.reconcileCommittedLocked(ctx, files); err == nil {
		err = rerr
	}
	n.mu.Unlock()
	if len(ack) > 0 {
		if aerr := n.q.Ack(ctx, ack); aerr != nil {
			s.warnf("warning: table %s: %v (the messages come back and are skipped as seen)", s.spec.Name, aerr)
		}
	}
	return err
}

// reconcileInterval is the option as DESCRIBE STREAM shows it.
func (s *StreamSource) reconcileInterval() string {
	switch {
	case s.sopts.ReconcileInterval <= 0:
		return "off"
	case s.shared:
		return "off (workers)"
	}
	return s.sopts.ReconcileInterval.String()
}

// dropUnselected forgets pending files the selection rules ruled out for
// good (too old, changed without reprocess_changed_files), acknowledging
// what only they held back.
func (s *StreamSource) dropUnselected(ctx context.Context, drop []fileEntry) {
	if len(drop) == 0 {
		return
	}
	if err := s.commitNotified(ctx, drop); err != nil {
		s.warnf("warning: table %s: %v", s.spec.Name, err)
	}
}

var (
	_ connector.StreamDescriber = (*StreamSource)(nil)
	_ connector.QueueReporter   = (*StreamSource)(nil)
)

// QueueStatus is NotifyStats for the server's metrics.
func (s *StreamSource) QueueStatus() (connector.QueueStatus, bool) {
	st, ok := s.NotifyStats()
	if !ok {
		return connector.QueueStatus{}, false
	}
	return connector.QueueStatus{
		Counts: []connector.QueueCount{
			{Kind: "received", N: st.Messages},
			{Kind: "new_files", N: st.Files},
			{Kind: "duplicates", N: st.Duplicate},
			{Kind: "filtered", N: st.Filtered},
			{Kind: "not_files", N: st.NotFiles},
			{Kind: "gone", N: st.Gone},
			{Kind: "foreign", N: st.Foreign},
			{Kind: "malformed", N: st.Malformed},
			{Kind: "reconciled", N: st.Reconciled},
		},
		Held: int64(st.Held), Pending: st.Backlog.Pending, Unacked: st.Backlog.Unacked,
	}, true
}

// StreamDescription is the queue's counters and backlog (as of the last
// Latest) for DESCRIBE STREAM; nothing without notifications.
func (s *StreamSource) StreamDescription() [][2]string {
	st, ok := s.NotifyStats()
	if !ok {
		return nil
	}
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	return [][2]string{
		{"queue", queue.Redact(s.sopts.Queue)},
		{"queue_messages", i(st.Messages)},
		{"queue_new_files", i(st.Files)},
		{"queue_duplicates", i(st.Duplicate)},
		{"queue_filtered", i(st.Filtered)},
		{"queue_not_files", i(st.NotFiles)},
		{"queue_gone", i(st.Gone)},
		{"queue_foreign", i(st.Foreign)},
		{"queue_malformed", i(st.Malformed)},
		{"reconcile_interval", s.reconcileInterval()},
		{"reconciles", i(st.Reconciles)},
		{"queue_reconciled", i(st.Reconciled)},
		{"queue_held", strconv.Itoa(st.Held)},
		{"queue_backlog_pending", i(st.Backlog.Pending)},
		{"queue_backlog_unacked", i(st.Backlog.Unacked)},
	}
}
