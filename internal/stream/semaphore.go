package stream

import "context"

// Semaphore bounds how many epochs run at once across the streams that
// share it (sluice serve runs every stream under one). A stream holds a
// slot for one epoch at a time, from planning to commit, and never while
// it waits for its trigger, so a slow stream cannot starve the others for
// longer than an epoch.
type Semaphore chan struct{}

// NewSemaphore returns a semaphore of n slots (at least one).
func NewSemaphore(n int) Semaphore {
	if n < 1 {
		n = 1
	}
	return make(Semaphore, n)
}

// acquire takes a slot; false when ctx ended or stop closed first.
func (s Semaphore) acquire(ctx context.Context, stop <-chan struct{}) bool {
	if s == nil {
		return true
	}
	select {
	case s <- struct{}{}:
		return true
	case <-ctx.Done():
	case <-stop:
	}
	return false
}

func (s Semaphore) release() {
	if s != nil {
		<-s
	}
}

// InUse is how many slots are taken now.
func (s Semaphore) InUse() int { return len(s) }
