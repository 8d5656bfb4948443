package cli

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"sluice/internal/job"
)

// abandoned reports whether the second stage of ctx (job.WithAbandon)
// is reached within d.
func abandoned(ctx context.Context, d time.Duration) bool {
	select {
	case <-job.Abandon(ctx):
		return true
	case <-time.After(d):
		return false
	}
}

func TestStagesSecondSignalAbandons(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	reset := make(chan struct{})
	ctx, stop := stages(context.Background(), sigs, 0, func() { close(reset) })
	defer stop()
	if ctx.Err() != nil || abandoned(ctx, 20*time.Millisecond) {
		t.Fatal("nothing may stop before a signal")
	}
	sigs <- syscall.SIGINT
	<-ctx.Done()
	if abandoned(ctx, 100*time.Millisecond) {
		t.Fatal("the first signal only asks for a stop at the boundary")
	}
	sigs <- syscall.SIGTERM
	if !abandoned(ctx, 5*time.Second) {
		t.Fatal("a second signal must abandon the epoch")
	}
	select {
	case <-reset:
	case <-time.After(5 * time.Second):
		t.Fatal("after the second stage the signals get their default effect back")
	}
}

func TestStagesTimeoutAbandons(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	ctx, stop := stages(context.Background(), sigs, 50*time.Millisecond, func() {})
	defer stop()
	if abandoned(ctx, 150*time.Millisecond) {
		t.Fatal("the timeout runs from the first signal, not from the start")
	}
	sigs <- syscall.SIGINT
	<-ctx.Done()
	if !abandoned(ctx, 5*time.Second) {
		t.Fatal("the stop timeout must abandon the epoch")
	}
}
