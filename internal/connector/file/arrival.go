package file

import (
	"context"
	"time"

	"sluice/internal/connector"
	"sluice/internal/queue"
)

var _ connector.ArrivalWaiter = (*StreamSource)(nil)

// WaitArrival waits, with discovery 'notifications', up to d for the
// queue's next message, so the epoch for a new object starts when its
// event comes rather than a poll later. The messages received are kept,
// unread, for the next Latest (discoverNotified takes them first): a
// broker or dead-letter failure then fails that epoch as any receive
// does, rather than this wait. Files already waiting for an epoch end
// the wait at once.
func (s *StreamSource) WaitArrival(ctx context.Context, d time.Duration) bool {
	s.mu.Lock()
	n := s.notify
	s.mu.Unlock()
	if !s.notifications() || n == nil {
		return false
	}
	n.mu.Lock()
	batch := s.receiveMaxLocked()
	ready := len(n.pending) > 0 || len(n.arrived) > 0
	n.mu.Unlock()
	if ready || batch <= 0 {
		return true
	}
	if c, ok := n.q.(queue.Checker); ok && c.Check() != nil {
		// Unreachable: the next epoch says so (and is retried).
		return false
	}
	msgs, err := n.q.Receive(ctx, batch, d)
	if err != nil {
		// The wait is only a hint; the next Latest's receive reports it.
		return false
	}
	if len(msgs) == 0 {
		return false
	}
	n.mu.Lock()
	n.arrived = append(n.arrived, msgs...)
	n.mu.Unlock()
	return true
}

// takeArrived turns the messages WaitArrival kept into pending files.
func (s *StreamSource) takeArrived(ctx context.Context) (int, error) {
	n := s.notify
	n.mu.Lock()
	msgs := n.arrived
	n.arrived = nil
	n.mu.Unlock()
	if len(msgs) == 0 {
		return 0, nil
	}
	return len(msgs), s.take(ctx, msgs)
}
