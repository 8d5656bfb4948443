package partition

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/testutil/natsserver"
)

func testJS(t *testing.T) jetstream.JetStream {
	t.Helper()
	srv := natsserver.StartTB(t)
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestLeases: one holder at a time; renewal keeps a lease, a holder that
// stops renewing loses it after the TTL to the next generation (and
// learns so at its next renewal), a release frees it at once.
func TestLeases(t *testing.T) {
	ctx := context.Background()
	js := testJS(t)
	ttl := time.Second
	a, err := OpenLeases(ctx, js, "sluice-t", "a", 4, ttl, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenLeases(ctx, js, "sluice-t", "b", 4, 5*time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	if b.TTL != ttl {
		t.Fatalf("second opener's TTL %s, want the bucket's %s", b.TTL, ttl)
	}
	if gen, ok, err := a.Take(ctx, 0); err != nil || !ok || gen != 1 {
		t.Fatalf("a takes p0: gen %d ok %v err %v", gen, ok, err)
	}
	if _, ok, err := b.Take(ctx, 0); err != nil || ok {
		t.Fatalf("b takes a held p0: ok %v err %v", ok, err)
	}
	// Renewed past several TTLs: still a's.
	for i := 0; i < 4; i++ {
		time.Sleep(ttl / 3)
		if lost, err := a.Heartbeat(ctx); err != nil || len(lost) > 0 {
			t.Fatalf("renewal: lost %v err %v", lost, err)
		}
	}
	if _, ok, _ := b.Take(ctx, 0); ok {
		t.Fatal("b took a renewed lease")
	}
	live, owners, err := b.View(ctx)
	if err != nil || fmt.Sprint(live) != "[a]" || owners[0] != (Holder{Worker: "a", Gen: 1}) {
		t.Fatalf("view: live %v owners %v err %v", live, owners, err)
	}
	// a stops renewing: b gets p0 under generation 2 after the TTL.
	t0 := time.Now()
	for {
		gen, ok, err := b.Take(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			if gen != 2 {
				t.Fatalf("taken over under generation %d, want 2", gen)
			}
			break
		}
		if time.Since(t0) > 10*ttl {
			t.Fatal("expired lease never taken over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if time.Since(t0) < ttl/2 {
		t.Fatalf("taken over after %s, before the TTL", time.Since(t0))
	}
	if lost, err := a.Heartbeat(ctx); err != nil || fmt.Sprint(lost) != "[0]" {
		t.Fatalf("a's renewal after losing p0: lost %v err %v", lost, err)
	}
	if _, ok := a.Holds(0); ok {
		t.Fatal("a still thinks it holds p0")
	}
	// A release frees the partition at once.
	if err := b.Release(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := a.Take(ctx, 0); err != nil || !ok {
		t.Fatalf("take after release: ok %v err %v", ok, err)
	}
	if Target(16, 3) != 6 || Target(16, 4) != 4 || Target(16, 0) != 16 {
		t.Fatal("Target")
	}
}

// TestLeasesLeave: a worker that leaves deletes its liveness key and its
// leases at once, and the others' Freed fires, so they can take its
// partitions long before the (here 30-second) TTL.
func TestLeasesLeave(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	js := testJS(t)
	ttl := 30 * time.Second
	a, err := OpenLeases(ctx, js, "sluice-leave", "a", 2, ttl, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenLeases(ctx, js, "sluice-leave", "b", 2, ttl, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []*Leases{a, b} {
		if _, err := l.Heartbeat(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for p := 0; p < 2; p++ {
		if _, ok, err := a.Take(ctx, p); err != nil || !ok {
			t.Fatalf("a takes p%d: ok %v err %v", p, ok, err)
		}
	}
	freed, err := b.Freed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if live, owners, err := b.View(ctx); err != nil || fmt.Sprint(live) != "[a b]" || len(owners) != 2 {
		t.Fatalf("before: live %v owners %v err %v", live, owners, err)
	}
	t0 := time.Now()
	if err := a.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-freed:
	case <-time.After(5 * time.Second):
		t.Fatal("no Freed signal after a left")
	}
	live, owners, err := b.View(ctx)
	if err != nil || fmt.Sprint(live) != "[b]" || len(owners) != 0 {
		t.Fatalf("after a left: live %v owners %v err %v", live, owners, err)
	}
	for p := 0; p < 2; p++ {
		if gen, ok, err := b.Take(ctx, p); err != nil || !ok || gen != 2 {
			t.Fatalf("b takes p%d: gen %d ok %v err %v", p, gen, ok, err)
		}
	}
	if d := time.Since(t0); d > ttl/2 {
		t.Fatalf("takeover after a clean leave took %s, TTL %s", d, ttl)
	}
	if len(a.Held()) != 0 {
		t.Fatalf("a still holds %v", a.Held())
	}
}
