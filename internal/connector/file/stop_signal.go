package file

import (
	"context"
	"errors"
	"fmt"

	"sluice/internal/connector"
	"sluice/internal/queue"
)

var _ connector.StopSignal = (*StreamSource)(nil)

// RequestStop asks every worker on the stream's queue to stop, through
// the queue (a JetStream key-value key per consumer).
func (s *StreamSource) RequestStop(ctx context.Context) error {
	st, closeFn, err := s.openStopper(ctx)
	if err != nil {
		return err
	}
	defer closeFn()
	return st.RequestStop(ctx)
}

// StopWatch watches the queue for a stop request on a connection of its
// own, closed when ctx ends.
func (s *StreamSource) StopWatch(ctx context.Context) (<-chan struct{}, error) {
	st, closeFn, err := s.openStopper(ctx)
	if err != nil {
		return nil, err
	}
	ch, err := st.StopWatch(ctx)
	if err != nil {
		_ = closeFn()
		return nil, err
	}
	go func() {
		<-ctx.Done()
		_ = closeFn()
	}()
	return ch, nil
}

func (s *StreamSource) openStopper(ctx context.Context) (queue.Stopper, func() error, error) {
	if !s.notifications() {
		return nil, nil, fmt.Errorf("table %s: no queue: %w", s.spec.Name, errors.ErrUnsupported)
	}
	st, closeFn, err := queue.OpenStopper(ctx, s.sopts.Queue)
	if err != nil {
		return nil, nil, fmt.Errorf("table %s: queue: %w", s.spec.Name, err)
	}
	return st, closeFn, nil
}
