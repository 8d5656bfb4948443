package server

import (
	"context"
	"time"

	"sluice/internal/stream"
)

// priorityGate puts API queries behind stream epochs. Go's scheduler
// shares the cores fairly among runnable goroutines, so 64 clients'
// queries would leave an epoch a sliver of the CPU: the stream would fall
// behind its files by the load of the API. While an epoch runs (the
// scheduler's epoch slots are in use), API queries go through one at a
// time, each after the epochs pause (between two epochs, while a stream
// waits for its trigger) or after priorityWait at most, so the epochs keep
// most of the machine and a query is never starved; with no epoch running
// queries run freely, as many as --max-concurrent-queries lets in.
//
// A query waits here only while it holds its query slot, so the wait is
// bounded by the slots (a full server still answers 429 at once) and by
// the request's context.
type priorityGate struct {
	epochs stream.Semaphore
	one    chan struct{}
}

func newPriorityGate(epochs stream.Semaphore) *priorityGate {
	return &priorityGate{epochs: epochs, one: make(chan struct{}, 1)}
}

// enter waits for the query's turn and returns what ends it; an error
// when ctx ended first.
func (g *priorityGate) enter(ctx context.Context) (func(), error) {
	if g == nil || g.epochs.InUse() == 0 {
		return func() {}, nil
	}
	select {
	case g.one <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	t := time.NewTicker(priorityPoll)
	defer t.Stop()
	deadline := time.Now().Add(priorityWait)
	for g.epochs.InUse() > 0 && time.Now().Before(deadline) {
		select {
		case <-t.C:
		case <-ctx.Done():
			<-g.one
			return nil, ctx.Err()
		}
	}
	return func() { <-g.one }, nil
}

// priorityWait bounds how long a query waits for running epochs to pause;
// priorityPoll is how often it looks.
const (
	priorityWait = 5 * time.Millisecond
	priorityPoll = time.Millisecond
)
