package stream

import (
	"context"
	"testing"
	"time"
)

func TestSemaphore(t *testing.T) {
	s := NewSemaphore(2)
	ctx := context.Background()
	if !s.acquire(ctx, nil) || !s.acquire(ctx, nil) || s.InUse() != 2 {
		t.Fatal("two slots should be free")
	}
	got := make(chan bool)
	go func() { got <- s.acquire(ctx, nil) }()
	select {
	case <-got:
		t.Fatal("a third acquire did not wait")
	case <-time.After(50 * time.Millisecond):
	}
	s.release()
	if !<-got {
		t.Fatal("the waiting acquire did not get the freed slot")
	}
	stop := make(chan struct{})
	close(stop)
	if s.acquire(ctx, stop) {
		t.Fatal("acquire took a slot that is not free after stop")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if s.acquire(cctx, nil) {
		t.Fatal("acquire took a slot that is not free after cancel")
	}
	var none Semaphore
	if !none.acquire(ctx, stop) {
		t.Fatal("a nil semaphore never blocks")
	}
	none.release()
}
